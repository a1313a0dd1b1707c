import type { DataPacket } from '../kernel/contributions.js';
import type { Vault } from '../security/vault.js';
import type { RunCheckpoint } from '../jobs/model.js';

/**
 * How much of a step's input a checkpoint keeps (bytes of JSON). Past it the checkpoint
 * records only the count: a retry of that run starts over (`from: "start"`). A document
 * must stay well under MongoDB's 16 MiB beside the step records.
 */
export const CHECKPOINT_BYTES = 4 * 1024 * 1024;

/** The vault context checkpoints are sealed under (core/security/vault.ts lists the namespace). */
const CONTEXT = 'run-checkpoint:packets';

/**
 * A run's checkpoints: the packets a step is given, and what each item it published passed
 * on, sealed at rest. Unlike the run record (masked, bounded for reading), a checkpoint is
 * the packets as they were, so a retry hands the failed step exactly its input again.
 */
export class Checkpoints {
  constructor(private readonly vault: Vault) {}

  /** The checkpoint of a step about to run with `packets` (nothing done yet). */
  at(flowStepId: string, index: number, packets: readonly DataPacket[]): RunCheckpoint {
    const json = JSON.stringify(packets);
    const fits = Buffer.byteLength(json) <= CHECKPOINT_BYTES;
    return { flow_step_id: flowStepId, index, input: fits ? this.vault.encrypt(json, CONTEXT) : null, count: packets.length, done: [] };
  }

  /** One item's output, sealed for the checkpoint's `done` list. */
  sealDone(itemId: string, output: readonly DataPacket[]): RunCheckpoint['done'][number] {
    return { item_id: itemId, output: this.vault.encrypt(JSON.stringify(output), CONTEXT) };
  }

  /** The packets a checkpoint was given; null when they were too large to keep. */
  input(checkpoint: RunCheckpoint): DataPacket[] | null {
    return checkpoint.input === null ? null : (JSON.parse(this.vault.decrypt(checkpoint.input, CONTEXT)) as DataPacket[]);
  }

  /** The items the checkpoint's step had done, each with what it passed on. */
  done(checkpoint: RunCheckpoint): Map<string, DataPacket[]> {
    return new Map(checkpoint.done.map((d) => [d.item_id, JSON.parse(this.vault.decrypt(d.output, CONTEXT)) as DataPacket[]]));
  }
}
