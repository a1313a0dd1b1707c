// Agenda's backend object around PortJobRepository. It has no notification channel
// (Agenda polls every `processEvery`) and no job logger (Agenda's persistent logging stays
// off). The store belongs to the host, so Agenda's stop() must never close it.
import type { AgendaBackend } from 'agenda';
import type { DocumentStore } from '../../core/store/port.js';
import { PortJobRepository } from './port-job-repository.js';

export class PortBackend implements AgendaBackend {
  readonly name: string;
  readonly repository: PortJobRepository;
  readonly ownsConnection = false;

  constructor(store: DocumentStore, collectionName?: string) {
    this.name = `DocumentStore (${store.kind})`;
    this.repository = new PortJobRepository(store, collectionName);
  }

  connect(): Promise<void> {
    return this.repository.connect();
  }

  /** Nothing to release: the store outlives the scheduler. */
  async disconnect(): Promise<void> {}
}
