/**
 * The API report (api/*.api.md) is the shape of every declaration the entry points offer, from the
 * built .d.ts: a changed signature, a new option or an internal type that became reachable shows up as
 * a diff of that file in review. This fails until the report is updated with the change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiReports, staleReports } from '../scripts/api-report.mjs';

test('api/*.api.md matches the built declarations of every entry point', () => {
  const problems = staleReports(apiReports());
  assert.deepEqual(
    problems,
    [],
    'The public API changed. If it is intended, run `npm run api:update` and commit api/ with the change.',
  );
});

test('the agent server’s engine is not part of the public API', () => {
  const server = apiReports().get('server.api.md')!;
  const agentServer = /### AgentServer\n\n```ts\n([\s\S]*?)```/.exec(server)?.[1] ?? '';
  assert.match(agentServer, /listen\(/, 'found the AgentServer declaration');
  for (const internal of ['service:', 'mount:', 'nodeHandler(', 'route(', 'mountOptions'])
    assert.ok(!agentServer.includes(internal), `AgentServer does not show ${internal}`);
  for (const leaked of ['OperationDispatcher', 'TaskManager', 'GrpcEventWriter', 'maskUrl'])
    assert.ok(
      ![...apiReports().values()].some((r) => r.includes(`### ${leaked}`)),
      `${leaked} is in no report`,
    );
});
