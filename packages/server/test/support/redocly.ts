/** Redocly's OpenAPI linter (@redocly/openapi-core) on a document, with the repository's redocly.yaml (no network). */
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';

const CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

export interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  /** JSON pointer of the first place the problem is found. */
  pointer: string | undefined;
}

export async function redoclyLint(document: object): Promise<RedoclyProblem[]> {
  const config = await loadConfig({ configPath: CONFIG });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems.map((problem) => ({ ruleId: problem.ruleId, severity: problem.severity, message: problem.message, pointer: problem.location[0]?.pointer }));
}
