/**
 * A typed client as an integrator would make it: openapi-typescript turns the document into types,
 * and TypeScript checks an integration written against them.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

export const INTEGRATION_SAMPLE = new URL('./integration.ts.txt', import.meta.url);
export const WRONG_INTEGRATION_SAMPLE = new URL('./wrong-integration.ts.txt', import.meta.url);

export interface TypeError {
  line: number;
  message: string;
}

/** Generates `akwe-api.ts` from `document` beside a copy of `sample`, and type-checks both strictly. */
export async function typeCheckAgainstDocument(document: object, sample: URL): Promise<{ sampleErrors: TypeError[]; otherErrors: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-typed-client-'));
  try {
    writeFileSync(join(dir, 'akwe-api.ts'), astToString(await openapiTS(structuredClone(document) as never)));
    const samplePath = join(dir, 'integration.ts');
    copyFileSync(sample, samplePath);
    const program = ts.createProgram([samplePath], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts'],
      types: [],
    });
    const sampleErrors: TypeError[] = [];
    const otherErrors: string[] = [];
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (diagnostic.file?.fileName === samplePath && diagnostic.start !== undefined) {
        sampleErrors.push({ line: diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1, message });
      } else {
        otherErrors.push(`${diagnostic.file?.fileName ?? ''}: ${message}`);
      }
    }
    return { sampleErrors, otherErrors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
