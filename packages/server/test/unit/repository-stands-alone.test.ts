/**
 * The repository stands alone: no tracked text file points at a document that lives outside it
 * (the interface contract or product notes a team kept beside the checkout). A rule the code
 * follows is stated where it is used or in docs/*.md, never by a file name a reader cannot open.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The names of outside documents, and a path climbing out of the checkout to a sibling `shared`
 * folder (a module import of our own `shared` folders, `…/shared/name.js`, is not one).
 */
const outsideReference = /\b(?:SPEC|PRODUCT|STYLE)\.md\b|(?:\.\.\/){2,}shared\b(?!\/[\w-]+\.[jt]s\b)|\.\.\/shared\/[A-Z]/;

const binaryExtensions = /\.(?:png|jpe?g|gif|ico|webp|woff2?|ttf|zip|gz|xlsx|sqlite|db)$/i;

function trackedTextFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z'], { cwd: repositoryRoot, encoding: 'utf8' });
  return listing
    .split('\0')
    .filter((path) => path !== '' && !path.includes('node_modules/') && !path.endsWith('package-lock.json'))
    .filter((path) => !binaryExtensions.test(path));
}

/** `path:line: text` for every line of `path` that names an outside document. */
function outsideReferencesIn(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => (outsideReference.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : []));
}

describe('the repository stands alone', () => {
  it('recognises a reference to an outside document, and not our own shared folders', () => {
    // Built from pieces so that this file does not itself hold what it looks for.
    const contractFile = ['SPEC', 'md'].join('.');
    const productFile = ['PRODUCT', 'md'].join('.');
    const up = '..' + '/';
    assert.equal(outsideReferencesIn('a.ts', `// as ${contractFile} says`).length, 1);
    assert.equal(outsideReferencesIn('a.md', `see ${up}shared/${productFile}`).length, 1);
    assert.equal(outsideReferencesIn('a.md', `see ${up}${up}shared/notes`).length, 1);
    assert.deepEqual(outsideReferencesIn('a.ts', `import { x } from '${up}shared/money.js';`), []);
    assert.deepEqual(outsideReferencesIn('a.ts', `import { x } from '${up}${up}shared/list-cursors.js';`), []);
  });

  it('has no tracked file that names a document outside the repository', () => {
    const files = trackedTextFiles();
    assert.ok(files.length > 100, `git ls-files listed only ${files.length} files`);
    const found = files.flatMap((path) => {
      const text = readFileSync(join(repositoryRoot, path), 'utf8');
      return text.includes('\0') ? [] : outsideReferencesIn(path, text);
    });
    assert.deepEqual(found, [], `state the rule itself or point to docs/*.md:\n${found.join('\n')}`);
  });
});
