/** What is measured: one entry per scenario, each a recipe for the load process against one server. */
const H = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const msg = (text) => ({ messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text }] });
const rpc = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
export const SEND_RPC = rpc('SendMessage', { message: msg('hello') });
export const STREAM_K = 50;

const sendRpc = (conns) => ({
  id: `rpc-send-c${conns}`,
  title: `JSON-RPC SendMessage, ${conns} conn${conns > 1 ? 's' : ''}`,
  kind: 'http',
  latency: true,
  async prepare(srv) {
    return {
      url: `${srv.origin}/a2a/jsonrpc`,
      method: 'POST',
      headers: H,
      body: SEND_RPC,
      connections: conns,
      verify: 'send-jsonrpc',
      expectStatus: 200,
    };
  },
});

/** gRPC scenarios: `transport: 'grpc'` starts each server with its gRPC listener and loads it with grpc-load.mjs. */
const sendGrpc = (concurrency) => ({
  id: `grpc-send-c${concurrency}`,
  title: `gRPC SendMessage, ${concurrency} concurrent call${concurrency > 1 ? 's' : ''}`,
  kind: 'http',
  transport: 'grpc',
  latency: true,
  // A bare node:http2 server answering fixed bytes as ours answers: what the transport itself allows here.
  extraServers: ['bare-h2'],
  async prepare(srv) {
    return srv.grpc ? { target: srv.grpc, concurrency } : null;
  },
});

export const SCENARIOS = [
  sendRpc(1),
  sendRpc(32),
  sendRpc(128),
  {
    id: 'rest-send-c32',
    title: 'REST POST /message:send, 32 conns',
    kind: 'http',
    latency: true,
    async prepare(srv) {
      if (!srv.rest) return null;
      const body = JSON.stringify({ message: msg('hello') });
      return {
        url: `${srv.origin}/a2a/rest/message:send`,
        method: 'POST',
        headers: H,
        body,
        connections: 32,
        verify: 'send-rest',
        expectStatus: 200,
      };
    },
  },
  {
    id: 'rpc-get-c32',
    title: 'JSON-RPC GetTask, 32 conns',
    kind: 'http',
    async prepare(srv) {
      const r = await fetch(`${srv.origin}/a2a/jsonrpc`, {
        method: 'POST',
        headers: H,
        body: SEND_RPC,
        signal: AbortSignal.timeout(10_000),
      });
      const id = (await r.json()).result.task.id;
      return {
        url: `${srv.origin}/a2a/jsonrpc`,
        method: 'POST',
        headers: H,
        body: rpc('GetTask', { id }),
        connections: 32,
        verify: 'get-jsonrpc',
        expectStatus: 200,
      };
    },
  },
  {
    id: 'card-c32',
    title: 'Agent card GET, 32 conns',
    kind: 'http',
    async prepare(srv) {
      return {
        url: `${srv.origin}/.well-known/agent-card.json`,
        method: 'GET',
        headers: {},
        connections: 32,
        verify: 'card',
        expectStatus: 200,
      };
    },
  },
  {
    id: 'card304-c32',
    title: 'Agent card 304 revalidation, 32 conns',
    kind: 'http',
    async prepare(srv) {
      const r = await fetch(`${srv.origin}/.well-known/agent-card.json`, {
        signal: AbortSignal.timeout(10_000),
      });
      await r.arrayBuffer();
      const etag = r.headers.get('etag');
      if (!etag) return null;
      return {
        url: `${srv.origin}/.well-known/agent-card.json`,
        method: 'GET',
        headers: { 'if-none-match': etag },
        connections: 32,
        verify: 'empty',
        expectStatus: 304,
      };
    },
  },
  {
    id: 'stream-c32',
    title: `SendStreamingMessage, K=${STREAM_K} status updates, 32 streams`,
    kind: 'stream',
    async prepare(srv) {
      return {
        url: `${srv.origin}/a2a/jsonrpc`,
        concurrency: 32,
        k: STREAM_K,
        maxStreams: 1_000_000,
      };
    },
  },
  sendGrpc(1),
  sendGrpc(32),
  sendGrpc(128),
  {
    id: 'grpc-stream-c32',
    title: `gRPC SendStreamingMessage, K=${STREAM_K} status updates, 32 streams`,
    kind: 'stream',
    transport: 'grpc',
    async prepare(srv) {
      return srv.grpc ? { target: srv.grpc, concurrency: 32, k: STREAM_K } : null;
    },
  },
];
