import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { printType } from './print-type.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '../../..');
export const ROUTER_TYPES_PATH = 'packages/sdk/src/generated/router.ts';

const HEADER = `/**
 * GENERATED FILE: do not edit; \`npm run gen:clients\` writes it from apps/api/src/router.ts.
 * The tRPC router's type as a client sees it: every procedure with its input and its output as JSON carries
 * it, and the error shape. The server's context (database, services) is erased, so the declarations need
 * nothing but @trpc/server's types. A test fails while this file differs from what the router gives.
 */
`;

type Probe = { checker: ts.TypeChecker; types: Map<string, ts.Type> };

function probe(): Probe {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const file = join(HERE, 'probe.ts');
  const program = ts.createProgram([file], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const types = new Map<string, ts.Type>();
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement)) {
      types.set(statement.name.text, checker.getTypeAtLocation(statement.name));
    }
  }
  return { checker, types };
}

const key = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** The text of packages/sdk/src/generated/router.ts, from the router as the sources define it now. */
export function routerTypesSource(): string {
  const { checker, types } = probe();
  const need = (name: string) => {
    const type = types.get(name);
    if (!type) throw new Error(`probe type ${name} missing`);
    return type;
  };
  const prop = (type: ts.Type, name: string) => {
    const symbol = checker.getPropertyOfType(type, name);
    return symbol ? checker.getTypeOfSymbol(symbol) : undefined;
  };

  const procedureKinds: Record<string, string> = {
    query: 'TRPCQueryProcedure',
    mutation: 'TRPCMutationProcedure',
    subscription: 'TRPCSubscriptionProcedure',
  };

  /**
   * A subscription's output is the AsyncIterable of what each event carries to the client (`{ id, data }` for
   * a `tracked()` event): spelt as one, since its only member has a symbol key, which printType leaves out.
   */
  const subscriptionOutput = (name: string, output: ts.Type, pad: string): string => {
    const [yielded] = checker.getTypeArguments(output as ts.TypeReference);
    if (!yielded) throw new Error(`the output of subscription ${name} is no AsyncIterable`);
    return `AsyncIterable<${printType(checker, yielded, pad)}>`;
  };

  const walk = (record: ts.Type, inputs: ts.Type, outputs: ts.Type, pad: string): string => {
    const inner = `${pad}  `;
    const lines: string[] = [];
    for (const symbol of checker.getPropertiesOfType(record)) {
      const name = symbol.getName();
      const value = checker.getTypeOfSymbol(symbol);
      const input = prop(inputs, name);
      const output = prop(outputs, name);
      if (!input || !output) throw new Error(`no input/output type for ${name}`);
      const def = prop(value, '_def');
      const kind = def ? prop(def, 'type') : undefined;
      if (def && kind) {
        const kindName = checker.typeToString(kind).replaceAll('"', '');
        const wrapper = procedureKinds[kindName];
        if (!wrapper) throw new Error(`unknown procedure type of ${name}`);
        const deeper = `${inner}  `;
        const printed =
          kindName === 'subscription'
            ? subscriptionOutput(name, output, deeper)
            : printType(checker, output, deeper);
        lines.push(
          `${inner}${key(name)}: ${wrapper}<{\n` +
            `${deeper}input: ${printType(checker, input, deeper)};\n` +
            `${deeper}output: ${printed};\n` +
            `${deeper}meta: object;\n${inner}}>;`,
        );
      } else {
        lines.push(`${inner}${key(name)}: ${walk(value, input, output, inner)};`);
      }
    }
    return `{\n${lines.join('\n')}\n${pad}}`;
  };

  const record = walk(need('ProbeRecord'), need('ProbeInputs'), need('ProbeOutputs'), '');
  const errorShape = printType(checker, need('ProbeErrorShape'));
  const events = printType(checker, need('ProbeStreamEvents'));
  const notification = printType(checker, need('ProbeNotification'));
  return `${HEADER}
import type {
  TRPCBuiltRouter,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCSubscriptionProcedure,
} from '@trpc/server';

/** What a failed tRPC call carries (the formatted error): \`data.appCode\` is the envelope's error code. */
export type AppRouterErrorShape = ${errorShape};

/** Every procedure of the API's tRPC router, for \`createTRPCClient<AppRouter>\`. */
export type AppRouterRecord = ${record};

export type AppRouter = TRPCBuiltRouter<
  { ctx: object; meta: object; errorShape: AppRouterErrorShape; transformer: false },
  AppRouterRecord
>;

/** The \`data\` of each debate stream event, by event name (confidence in whole-number percent). */
export type DebateStreamEventData = ${events};

/** A notification of the notification stream. */
export type NotificationData = ${notification};

// Keeps the import used when the router has no subscription.
export type _Subscription = TRPCSubscriptionProcedure<{ input: unknown; output: unknown; meta: object }>;
`;
}
