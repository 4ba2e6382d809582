/**
 * Which media types an agent accepts in message parts: the card's defaultInputModes plus every skill's
 * inputModes (§4.4.1, §4.4.5). A part whose `mediaType` is outside them is ContentTypeNotSupported (§3.1.1).
 */
import type { AgentCard, Message } from '../../protocol/index.js';

/** `text/plain; charset=utf-8` → `text/plain`. */
const bare = (t: string): string => t.split(';')[0]!.trim().toLowerCase();

/** A predicate over media types, or undefined when the card accepts anything (no modes, or `*\/*`). */
export function inputModeMatcher(card: AgentCard): ((mediaType: string) => boolean) | undefined {
  const modes = new Set(
    [
      ...(card.defaultInputModes ?? []),
      ...(card.skills ?? []).flatMap((s) => s.inputModes ?? []),
    ].map(bare),
  );
  if (modes.size === 0 || modes.has('*/*') || modes.has('*')) return undefined;
  const families = new Set([...modes].filter((m) => m.endsWith('/*')).map((m) => m.slice(0, -1)));
  return (mediaType) => {
    const t = bare(mediaType);
    return modes.has(t) || [...families].some((f) => t.startsWith(f));
  };
}

/** The first part media type the agent does not accept, if any. */
export function unsupportedMediaType(
  message: Message,
  accepts: (mediaType: string) => boolean,
): string | undefined {
  for (const p of message.parts) if (p.mediaType && !accepts(p.mediaType)) return p.mediaType;
  return undefined;
}
