import { Command } from 'commander';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

/** Grants and revocations made from the command line are recorded with this actor in the audit log. */
const CLI_ACTOR = 'cli';

/**
 * `akwe admins`: the platform's administrators, who use the back office (/admin). Only this
 * command makes one: no route can, so neither a merchant's role nor a stolen session becomes one.
 */
export function adminCommands(): Command {
  const admins = new Command('admins').description('grant, revoke and list the platform administrators (the back office, /admin)');

  admins
    .command('grant')
    .description('make a dashboard user a platform administrator')
    .argument('<email>', 'the address the user signs in with')
    .option('--json', 'print JSON')
    .action(async (email: string, options: { json?: boolean }) => {
      const changed = await withServices((s) => s.platformAdmins.grant(email, CLI_ACTOR));
      output(options.json, { email: email.trim().toLowerCase(), platform_admin: true, changed }, () =>
        changed ? `${email} is now a platform administrator` : `${email} was a platform administrator already`,
      );
    });

  admins
    .command('revoke')
    .description('take the role away (their next request to /api/v1/admin is refused)')
    .argument('<email>', 'the address the user signs in with')
    .option('--json', 'print JSON')
    .action(async (email: string, options: { json?: boolean }) => {
      const changed = await withServices((s) => s.platformAdmins.revoke(email, CLI_ACTOR));
      output(options.json, { email: email.trim().toLowerCase(), platform_admin: false, changed }, () =>
        changed ? `${email} is no longer a platform administrator` : `${email} was not a platform administrator`,
      );
    });

  admins
    .command('list')
    .description('list the platform administrators')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withServices((s) => s.platformAdmins.list());
      output(
        options.json,
        list.map((a) => ({ user_id: a.userId, email: a.email, name: a.name, granted_at: a.grantedAt, granted_by: a.grantedBy })),
        () => table(list.map((a) => ({ email: a.email, name: a.name, granted: a.grantedAt, by: a.grantedBy }))),
      );
    });

  return admins;
}
