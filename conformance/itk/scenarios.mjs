/**
 * The ITK scenarios run against a2a-kit: for each reference agent and binding, a chain that starts at
 * either side (a2a-kit → peer → a2a-kit, peer → a2a-kit → peer), sent plain, streaming and with a push
 * config, and a resubscription each way to a task the callee holds open. Each hop answers with a name
 * of its own, so the first agent's answer shows every hop was reached.
 */
import { encodeInstruction } from './instruction.ts';

const TRANSPORT = { jsonrpc: 'JSONRPC', http_json: 'HTTP+JSON', grpc: 'GRPC' };
const PEERS = ['ts_v10', 'ts_v03'];

/** Every scenario, with the reason when one is known not to work yet. */
export function scenarios() {
  const out = [];
  for (const peer of PEERS) {
    for (const protocol of Object.keys(TRANSPORT)) {
      const expectedToFail =
        peer === 'ts_v03' && protocol === 'grpc'
          ? '0.3 over gRPC: a2a-kit neither serves nor calls it yet (issue 25)'
          : undefined;
      const add = (behavior, chain) =>
        out.push({
          name: `${chain.join(' → ')} ${protocol} ${behavior}`,
          id: `s${out.length}`,
          peer,
          protocol,
          behavior,
          chain,
          ...(expectedToFail ? { expectedToFail } : {}),
        });
      for (const behavior of ['send', 'stream', 'push']) {
        add(behavior, ['a2a-kit', peer, 'a2a-kit']);
        add(behavior, [peer, 'a2a-kit', peer]);
      }
      add('resubscribe', ['a2a-kit', peer]);
      add('resubscribe', [peer, 'a2a-kit']);
    }
  }
  return out;
}

/** What each hop answers. */
export function expectedAnswers(s) {
  return s.chain.map((_, i) => `${s.id}-hop${i}`);
}

function instructionFor(s, nodes, hubUrl, i) {
  const answer = {
    returnResponse: {
      response: `${s.id}-hop${i}`,
      holdTask: s.behavior === 'resubscribe' && i === nodes.length - 1,
    },
  };
  if (i === nodes.length - 1) return answer;
  const behavior =
    s.behavior === 'push'
      ? { pushNotification: { url: hubUrl } }
      : s.behavior === 'resubscribe'
        ? { resubscribe: {} }
        : { sendMessage: {} };
  const callAgent = {
    transport: TRANSPORT[s.protocol],
    agentCardUri: nodes[i + 1].url,
    instruction: instructionFor(s, nodes, hubUrl, i + 1),
    streaming: s.behavior === 'stream',
    ...behavior,
  };
  return { steps: { instructions: [answer, { callAgent }] } };
}

/** The message part carrying the scenario's instruction to the first agent. */
export function instructionPart(s, nodes, hubUrl) {
  return {
    raw: Buffer.from(encodeInstruction(instructionFor(s, nodes, hubUrl, 0))).toString('base64'),
    mediaType: 'application/x-protobuf',
    filename: 'instruction.bin',
  };
}
