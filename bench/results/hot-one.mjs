import { OperationDispatcher } from '../../dist/server/dispatch/dispatcher.js';
import { OPERATIONS } from '../../dist/protocol/index.js';
import { decodeMessage, encodeMessage, encodeFramed } from '../../dist/protocol/grpc/index.js';
import { echo, echoCard } from '../servers/harness.mjs';

const d = new OperationDispatcher({ card: echoCard('http://127.0.0.1:1'), executor: echo });
const op = OPERATIONS.find((o) => o.name === 'SendMessage');
const req = Buffer.from(encodeMessage('SendMessageRequest', { message: { messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } }));
const cc = { binding: 'GRPC', version: '1.0', requestedExtensions: [], activatedExtensions: new Set(), header: () => undefined, signal: new AbortController().signal };
export async function one() {
  const params = decodeMessage('SendMessageRequest', req);
  const res = await d.call(op, params, cc);
  return encodeFramed('SendMessageResponse', res);
}
