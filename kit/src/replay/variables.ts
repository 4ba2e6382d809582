import { randomInt, randomUUID } from 'node:crypto';
import { getPath, parseJsonPath } from './jsonpath.js';
import type { FileVariable, RecordedResponse } from './types.js';

/** Everything a `{{…}}` reference can resolve against while replaying one file. */
export interface VariableScope {
  /** Programmatic variables (base URLs, tokens); they win over file variables. */
  readonly overrides: Readonly<Record<string, string>>;
  readonly fileVariables: ReadonlyMap<string, FileVariable>;
  /** Source of `{{$processEnv NAME}}`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Responses of the named requests that have run so far. */
  readonly responses: ReadonlyMap<string, RecordedResponse>;
  /** Every `@name` in the file, to tell "not run yet" from "no such request". */
  readonly requestNames: ReadonlySet<string>;
}

// File variables may reference each other; a cycle must end in an error, not a hang.
const MAX_DEPTH = 16;
const REFERENCE = /\{\{\s*(.*?)\s*\}\}/g;

/**
 * Replaces every `{{…}}` in a template. Throws an Error naming the first reference that
 * cannot be resolved, so the exchange fails with a precise reason instead of sending `{{x}}`.
 */
export function substitute(template: string, scope: VariableScope, depth = 0): string {
  if (depth > MAX_DEPTH) throw new Error('variables nest too deeply (a cycle?)');
  return template.replace(REFERENCE, (_all, expr: string) => resolve(expr, scope, depth));
}

function resolve(expr: string, scope: VariableScope, depth: number): string {
  if (expr.startsWith('$')) return systemVariable(expr, scope);
  const ref = /^([\w-]+)\.(response)\.(body|headers)\.(.+)$/.exec(expr);
  if (ref) return responseReference(ref[1] ?? '', ref[3] === 'body', ref[4] ?? '', scope);
  if (Object.prototype.hasOwnProperty.call(scope.overrides, expr))
    return scope.overrides[expr] ?? '';
  const fileVar = scope.fileVariables.get(expr);
  if (fileVar) return substitute(fileVar.value, scope, depth + 1);
  throw new Error(`undefined variable {{${expr}}}`);
}

function systemVariable(expr: string, scope: VariableScope): string {
  const [name = '', ...args] = expr.split(/\s+/);
  switch (name) {
    case '$guid':
    case '$uuid':
    case '$random.uuid':
      return randomUUID();
    case '$timestamp':
      return String(Math.floor(Date.now() / 1000));
    case '$isoTimestamp':
      return new Date().toISOString();
    case '$datetime':
      if (args[0] === 'rfc1123') return new Date().toUTCString();
      if (args[0] === 'iso8601' || args[0] === undefined) return new Date().toISOString();
      throw new Error(`{{$datetime}} supports iso8601 and rfc1123, not ${args[0]}`);
    case '$randomInt': {
      const [min, max] = args.map(Number);
      if (!Number.isInteger(min) || !Number.isInteger(max) || (max as number) <= (min as number)) {
        throw new Error(`{{$randomInt min max}} needs two integers with min < max: {{${expr}}}`);
      }
      return String(randomInt(min as number, max as number));
    }
    case '$processEnv': {
      const key = args[0];
      if (!key) throw new Error('{{$processEnv NAME}} needs a variable name');
      const value = scope.env[key];
      if (value === undefined)
        throw new Error(`environment variable ${key} is not set ({{${expr}}})`);
      return value;
    }
    default:
      throw new Error(`unsupported system variable {{${expr}}}`);
  }
}

function responseReference(
  name: string,
  isBody: boolean,
  rest: string,
  scope: VariableScope,
): string {
  const res = scope.responses.get(name);
  if (!res) {
    throw new Error(
      scope.requestNames.has(name)
        ? `request "${name}" has no response yet (it has not run, or it failed)`
        : `no request named "${name}" (add "# @name ${name}" above it)`,
    );
  }
  if (!isBody) {
    const value = res.headers.get(rest);
    if (value === null) throw new Error(`response of "${name}" has no header ${rest}`);
    return value;
  }
  if (rest === '*') return res.text;
  const value = getPath(res.doc, parseJsonPath(rest));
  if (value === undefined) throw new Error(`response body of "${name}" has nothing at ${rest}`);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
