/**
 * The ITK's traversal instruction (its `protos/instruction.proto`, package `itk`), decoded and encoded
 * with protobufjs from a descriptor written here: field numbers and names as the ITK defines them, so
 * bytes from any of its agents read the same.
 */
import protobuf from 'protobufjs';

/** What to do with the message an agent is sent: answer, call another agent, or several steps. */
export interface Instruction {
  callAgent?: CallAgent;
  returnResponse?: { response?: string; holdTask?: boolean };
  steps?: { instructions?: Instruction[]; responseGenerator?: number };
}

/** Call the agent at `agentCardUri` over `transport`, passing `instruction` on. */
export interface CallAgent {
  transport?: string;
  agentCardUri?: string;
  instruction?: Instruction;
  streaming?: boolean;
  sendMessage?: object;
  pushNotification?: { url?: string };
  resubscribe?: object;
}

const root = protobuf.Root.fromJSON({
  nested: {
    itk: {
      nested: {
        Instruction: {
          oneofs: { step: { oneof: ['callAgent', 'returnResponse', 'steps'] } },
          fields: {
            callAgent: { type: 'CallAgent', id: 1 },
            returnResponse: { type: 'ReturnResponse', id: 2 },
            steps: { type: 'SeriesOfSteps', id: 3 },
          },
        },
        SendMessageBehavior: { fields: {} },
        PushNotificationBehavior: { fields: { url: { type: 'string', id: 1 } } },
        ResubscribeBehavior: { fields: {} },
        CallAgent: {
          oneofs: { behavior: { oneof: ['sendMessage', 'pushNotification', 'resubscribe'] } },
          fields: {
            transport: { type: 'string', id: 1 },
            agentCardUri: { type: 'string', id: 2 },
            instruction: { type: 'Instruction', id: 3 },
            streaming: { type: 'bool', id: 4 },
            sendMessage: { type: 'SendMessageBehavior', id: 5 },
            pushNotification: { type: 'PushNotificationBehavior', id: 6 },
            resubscribe: { type: 'ResubscribeBehavior', id: 7 },
          },
        },
        ReturnResponse: {
          fields: { response: { type: 'string', id: 1 }, holdTask: { type: 'bool', id: 2 } },
        },
        SeriesOfSteps: {
          fields: {
            instructions: { rule: 'repeated', type: 'Instruction', id: 1 },
            responseGenerator: { type: 'int32', id: 2 },
          },
        },
      },
    },
  },
});
const InstructionType = root.lookupType('itk.Instruction');

/** Decode instruction bytes; throws on bytes that are not one. */
export function decodeInstruction(bytes: Uint8Array): Instruction {
  return InstructionType.toObject(InstructionType.decode(bytes), {
    defaults: false,
  });
}

/** Encode an instruction. */
export function encodeInstruction(instruction: Instruction): Uint8Array {
  return InstructionType.encode(InstructionType.fromObject(instruction)).finish();
}

/** Whether any step of the instruction asks to hold its task open (the resubscribe scenarios). */
export function holdsTask(i: Instruction): boolean {
  if (i.returnResponse) return i.returnResponse.holdTask === true;
  return (i.steps?.instructions ?? []).some(holdsTask);
}
