import type { DataPacket } from '../kernel/contributions.js';
import { maskDeep } from '../security/mask.js';
import type { RecordedPackets } from '../jobs/model.js';

/** How much of a step's input and of its output a job keeps by default (bytes of JSON, each). */
export const DEFAULT_STEP_RECORD_BYTES = 64 * 1024;

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify({ unserializable: true });
  }
}

/**
 * What a job keeps of the packets a step was given or passed on: their JSON, secret-looking
 * fields masked (core/security/mask.ts), the first packets up to `maxBytes`; what did not fit
 * is counted (items and bytes), so a reader knows the record is partial. `exact` says the
 * kept JSON is the packets as they were (nothing masked, nothing cut): a retry may start
 * the step again from it.
 */
export function recordPackets(packets: readonly DataPacket[], maxBytes: number): RecordedPackets {
  const kept: string[] = [];
  let size = 2;
  let masked = false;
  let cutItems = 0;
  let cutBytes = 0;
  for (const packet of packets) {
    const raw = json(packet);
    if (cutItems > 0) {
      cutItems++;
      cutBytes += Buffer.byteLength(raw);
      continue;
    }
    const shown = json(maskDeep(packet));
    const bytes = Buffer.byteLength(shown);
    if (size + bytes + 1 > maxBytes) {
      cutItems++;
      cutBytes += Buffer.byteLength(raw);
      continue;
    }
    if (shown !== raw) masked = true;
    kept.push(shown);
    size += bytes + 1;
  }
  return {
    json: `[${kept.join(',')}]`,
    count: packets.length,
    ...(cutItems ? { cut_items: cutItems, cut_bytes: cutBytes } : {}),
    ...(masked ? { masked: true } : {}),
  };
}
