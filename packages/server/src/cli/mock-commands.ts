import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new InvalidArgumentError('a port from 0 to 65535');
  return parsed;
}

/** `akwe mocks`: the operators' mock servers, and an operators file pointing a server at them. */
export function mockCommands(): Command {
  return new Command('mocks')
    .description('run the mock operator servers (MTN MoMo, Wave, Orange Money, pawaPay, FedaPay) and write an operators file pointing at them')
    .option('--port <port>', 'port to listen on (0: any free one)', port, 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .requiredOption('--operators-file <path>', 'where to write the operators file for OPERATORS_FILE')
    .option('--server-url <url>', 'the Akwe server Wave’s webhooks and pawaPay’s callbacks go to (its PUBLIC_URL)', 'http://localhost:8080')
    .action(async (options: { port: number; host: string; operatorsFile: string; serverUrl: string }) => {
      const { startOperatorMocks } = await import('../operators/mocks/operator-mocks.js');
      const mocks = await startOperatorMocks({ port: options.port, host: options.host, serverUrl: options.serverUrl });
      const path = resolve(options.operatorsFile);
      writeFileSync(path, `${JSON.stringify(mocks.operatorsFile, null, 2)}\n`);
      process.stdout.write(
        [
          `operator mocks listening on ${mocks.url}; each operator's routes, in order:`,
          ...Object.entries(mocks.operatorsFile.operators).map(
            ([slug, routes]) =>
              `  ${slug}: ${([] as Array<{ connector: string; base_url: string }>)
                .concat(routes as never)
                .map((r) => `${r.connector} at ${r.base_url}`)
                .join(', then ')}`,
          ),
          `Wave's webhooks go to ${options.serverUrl}/api/v1/operators/wave/webhooks`,
          `pawaPay's callbacks go to ${options.serverUrl}/api/v1/operators/pawapay/callbacks/<deposits|payouts|refunds>`,
          `operators file written to ${path}`,
          `run the server against them:  OPERATORS_FILE=${path} npm start`,
          `MTN: numbers ending 450 payer not found, 451 rejected, 452 timeout, 453/454 stay pending, 455 not enough funds; others succeed`,
          `pawaPay (its sandbox numbers): deposits ending 019 limit reached, 029 payer not found, 039 not approved, 049 insufficient balance, 069 failure, 129 stay processing; payouts 089 recipient not found, 119 failure; Orange CI code 000000 refused`,
          `Wave: the customer pays on the mock's own page; payouts to numbers ending 450, 451, 452 fail, 453 stay processing, 455 are refused`,
          `Orange Money: the customer approves, fails or cancels on the mock's own payment page; Orange then notifies our notif_url`,
          '',
        ].join('\n'),
      );
      const stop = () => void mocks.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
