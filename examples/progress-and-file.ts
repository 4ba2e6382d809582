/**
 * Progress updates and a file artifact. The agent reports each step as a WORKING status message, then
 * returns a CSV file (bytes as base64 in a `raw` part, with a filename and media type). The client
 * streams the task, prints the progress as it arrives and saves the file.
 *
 *   npx tsx examples/progress-and-file.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOf } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';

const reporter: AgentExecutor = async (ctx, task) => {
  const cities = ctx.text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const rows = ['city,letters'];
  for (const [i, city] of cities.entries()) {
    if (ctx.signal.aborted) return; // canceled: stop quietly, the server has already recorded it
    task.working(`measuring ${city} (${i + 1}/${cities.length})`);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the real work would go here
    rows.push(`${city},${city.length}`);
  }
  task.addArtifact({
    name: 'report',
    parts: [
      {
        raw: Buffer.from(rows.join('\n') + '\n').toString('base64'),
        filename: 'report.csv',
        mediaType: 'text/csv',
      },
    ],
  });
  task.complete(`measured ${cities.length} cities`);
};

const agent = createAgentServer({
  executor: reporter,
  card: (origin) => ({
    name: 'reporter',
    description: 'Writes a CSV report',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'text/csv'],
    skills: [{ id: 'report', name: 'Report', description: 'Measures city names', tags: ['demo'] }],
  }),
});
const client = await A2AClient.connect(await agent.listen(0));
const out = mkdtempSync(path.join(tmpdir(), 'a2a-report-'));

for await (const event of client.sendStreamingMessage({
  message: userMessage('Brest, Lyon, Nice'),
})) {
  if ('statusUpdate' in event) {
    const { state, message } = event.statusUpdate.status;
    console.log(`${state}${message ? `  ${textOf(message)}` : ''}`);
  } else if ('artifactUpdate' in event) {
    for (const part of event.artifactUpdate.artifact.parts) {
      if (part.raw === undefined) continue;
      const file = path.join(out, part.filename ?? 'artifact.bin');
      writeFileSync(file, Buffer.from(part.raw, 'base64'));
      console.log(
        `file ${part.filename} (${part.mediaType}) saved: ${JSON.stringify(Buffer.from(part.raw, 'base64').toString())}`,
      );
    }
  }
}

rmSync(out, { recursive: true, force: true });
await agent.close();
