import { inspect } from 'node:util';

/**
 * A credential from the operators file. It prints as `[secret]` wherever it is logged, serialised
 * or inspected; only `reveal()` gives the value, at the one place it is sent to the operator.
 */
export class SecretValue {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[secret]';
  }

  toJSON(): string {
    return '[secret]';
  }

  [inspect.custom](): string {
    return '[secret]';
  }
}
