// The service container of a host built with `CreateHostOptions.services` (the test kit's
// mocks): those factories are provided first, and any later provider of the same reference
// (the kernel, a core plugin, a plugin under test) is skipped instead of refused, so a
// test's implementation wins wherever the service would otherwise come from. Without
// overrides a host uses the plain ServiceContainer.
import type { DependencyContainer } from 'tsyringe';
import { ServiceContainer } from '../../core/kernel/service-container.js';
import type { ServiceFactory } from '../../core/kernel/service-ref.js';

export class OverridableContainer extends ServiceContainer {
  private readonly overridden = new Set<symbol>();

  constructor(root: DependencyContainer, overrides: ReadonlyArray<ServiceFactory>) {
    super(root);
    for (const factory of overrides) {
      super.provide(factory, 'test');
      this.overridden.add(factory.service.token);
    }
  }

  override provide(factory: ServiceFactory, owner: string): void {
    if (this.overridden.has(factory.service.token)) return;
    super.provide(factory, owner);
  }
}
