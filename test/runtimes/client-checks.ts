/**
 * What every runtime's client run and every runtime-served agent must get right: on each binding the
 * client speaks (JSON-RPC, HTTP+JSON), discover the card (checking its signature when trusted keys are
 * given), send, stream and get. Imported by package name only, as an application would, so the same
 * module runs on Node, Bun and Deno and is bundled for Chromium.
 */
import { A2AClient, userMessage, type CardTrust, type FetchLike, type Task } from 'a2a-kit/client';

/** Options of {@link exerciseAgent}. */
export interface ExerciseOptions {
  /** Keys the card must be signed with; without them the card is not checked. */
  trust?: CardTrust;
  /** The fetch to use (default: the runtime's). */
  fetch?: FetchLike;
}

const echoed = (task: Task) => task.artifacts?.[0]?.parts[0]?.text ?? '(no artifact)';

/** Runs the operations against the echo agent at `base`; one line per step, throws on a wrong answer. */
export async function exerciseAgent(base: string, opts: ExerciseOptions = {}): Promise<string[]> {
  const lines: string[] = [];
  for (const binding of ['JSONRPC', 'HTTP+JSON']) {
    const client = await A2AClient.connect(base, {
      bindings: [binding],
      cache: false,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.trust ? { trust: { ...opts.trust, requireSignature: true } } : {}),
    });
    if (client.interface.binding !== binding)
      throw new Error(`asked for ${binding}, got ${client.interface.binding}`);
    if (opts.trust) lines.push(`${binding} card: signature verified`);

    const sent = await client.sendMessage({ message: userMessage(`send over ${binding}`) });
    if (!('task' in sent)) throw new Error(`${binding} send answered a message, not a task`);
    lines.push(`${binding} send: ${sent.task.status.state} "${echoed(sent.task)}"`);

    const states: string[] = [];
    let streamed = '';
    for await (const event of client.sendStreamingMessage({
      message: userMessage(`stream over ${binding}`),
    })) {
      if ('task' in event) states.push(event.task.status.state);
      else if ('statusUpdate' in event) states.push(event.statusUpdate.status.state);
      else if ('artifactUpdate' in event)
        streamed += event.artifactUpdate.artifact.parts.map((p) => p.text ?? '').join('');
    }
    lines.push(`${binding} stream: ${states.join(' → ')} "${streamed}"`);

    const got = await client.getTask({ id: sent.task.id });
    lines.push(
      `${binding} get: ${got.id === sent.task.id ? 'same task' : 'another task'} ${got.status.state}`,
    );
  }
  return lines;
}

/** The lines {@link exerciseAgent} prints for the echo agent when all is well. */
export function expectedLines(signed: boolean): string[] {
  return ['JSONRPC', 'HTTP+JSON'].flatMap((b) => [
    ...(signed ? [`${b} card: signature verified`] : []),
    `${b} send: TASK_STATE_COMPLETED "send over ${b}"`,
    `${b} stream: TASK_STATE_SUBMITTED → TASK_STATE_COMPLETED "stream over ${b}"`,
    `${b} get: same task TASK_STATE_COMPLETED`,
  ]);
}
