/**
 * The planner's own webhook for push notifications (the deployer does not stream). Events are
 * routed by task id into mailboxes; a notification may arrive before the send that created the
 * task has even returned, so unknown ids are kept until someone asks for them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { createPushReceiver } from 'a2a-kit/client/push-receiver';
import type { StreamResponse } from 'a2a-kit';

type Waiter = (event: StreamResponse) => void;

export class PlannerWebhook {
  readonly token = randomBytes(24).toString('base64url');
  #server: Server | undefined;
  #url = '';
  readonly #mail = new Map<string, StreamResponse[]>();
  readonly #waiters = new Map<string, Waiter>();
  /** Events accepted so far (for the transcript). */
  received = 0;

  get url(): string {
    return this.#url;
  }

  async start(host: string, port: number): Promise<string> {
    const receiver = createPushReceiver({
      token: this.token,
      onEvent: (event, meta) => {
        this.received++;
        const w = this.#waiters.get(meta.taskId);
        if (w) w(event);
        else if (this.#mail.has(meta.taskId) || this.#mail.size < 100) {
          // Bounded both ways: a planner follows a handful of tasks, so more mailboxes than that are noise.
          const box = this.#mail.get(meta.taskId) ?? [];
          if (box.length < 1000) box.push(event);
          this.#mail.set(meta.taskId, box);
        }
      },
    });
    const server = createServer(traced(receiver.listener));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const addr = server.address();
    this.#url = `http://${host}:${typeof addr === 'object' && addr ? addr.port : port}/webhook`;
    return this.#url;
  }

  /** Receive events of `taskId` (including those that arrived before) until `off()` is called. */
  on(taskId: string, handler: Waiter): () => void {
    for (const e of this.#mail.get(taskId) ?? []) handler(e);
    this.#mail.delete(taskId);
    this.#waiters.set(taskId, handler);
    return () => this.#waiters.delete(taskId);
  }

  async close(): Promise<void> {
    const s = this.#server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}

/**
 * The webhook's side of a delivery as a SERVER span below the agent's delivery span (its `traceparent`),
 * so one trace ends where the notification arrived. Without an OpenTelemetry SDK this does nothing.
 */
function traced(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const tracer = trace.getTracer('a2a-kit-demo/planner');
  return (req, res) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      'planner webhook',
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } },
      parent,
    );
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => listener(req, res));
  };
}
