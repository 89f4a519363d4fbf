/**
 * docs/configuration.md and the configuration code cannot drift: every variable loadConfig reads is
 * declared in `configVariables` and documented, and every documented variable is read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { configVariables, loadConfig } from '../../src/config.js';
import { firstColumnCodes, readDoc, sectionOf } from '../support/markdown-sections.js';

/** Documented beside the others but read by one command, not by loadConfig. */
const readByCommands: Record<string, string> = { AKWE_PREVIOUS_SECRET: 'src/cli/webhook-commands.ts' };

const documented = () => firstColumnCodes(sectionOf(readDoc('docs/configuration.md'), '## Variables'));

/** The names loadConfig looks up in its environment, all unset. */
function namesReadByLoadConfig(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return [...read].sort();
}

describe('docs/configuration.md against the configuration code', () => {
  it('declares exactly the variables loadConfig reads', () => {
    assert.deepEqual(namesReadByLoadConfig(), [...configVariables].sort());
  });

  it('documents every variable the configuration reads', () => {
    const missing = configVariables.filter((name) => !documented().includes(name));
    assert.deepEqual(missing, [], 'add these to the "Variables" table of docs/configuration.md');
  });

  it('documents no variable that nothing reads, and each one once', () => {
    const listed = documented();
    const unread = listed.filter((name) => !(configVariables as readonly string[]).includes(name) && !(name in readByCommands));
    assert.deepEqual(unread, [], 'remove these from docs/configuration.md, or read them in src/config.ts');
    assert.equal(new Set(listed).size, listed.length, 'a variable is documented twice');
  });

  it('still finds the variables documented as read by a command in that command', () => {
    for (const [name, file] of Object.entries(readByCommands)) {
      assert.ok(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').includes(`'${name}'`), `${file} no longer reads ${name}`);
      assert.ok(documented().includes(name), `${name} is not documented`);
    }
  });
});
