/**
 * The public catalogue of service references a plugin lists in `deps`: the kernel's own
 * (clock, hooks, registries, store, logger, registrars...) and the domains', each typed by
 * its contract interface. Privileged services (the whole store, the run scheduler, run
 * marks) are not here: they are core/internal-services.ts's, for the core plugins only.
 */
import { services as kernelServices } from './kernel/services.js';
import { domainServices } from './contract/services.js';

export type Services = typeof kernelServices & typeof domainServices;

export const services: Services = { ...kernelServices, ...domainServices };
