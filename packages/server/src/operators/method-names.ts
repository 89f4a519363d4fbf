/**
 * Every method name of a connector flow: its own properties and its class's methods up the
 * prototype chain (the sandbox's flows are the instance itself). Used by the wrappers that put
 * something around each call (the circuit breaker, the metrics).
 */
export function methodNames(flow: object): string[] {
  const names = new Set(Object.keys(flow));
  for (let proto = Object.getPrototypeOf(flow) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  }
  return [...names];
}
