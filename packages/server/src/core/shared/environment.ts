export const environments = ['test', 'live'] as const;
export type Environment = (typeof environments)[number];

/** Whose data an operation may touch: every read and write in the core is scoped by this pair. */
export interface TenantScope {
  merchantId: string;
  environment: Environment;
}
