// `node --import <this> …`: registers import-trace-hooks.mjs before the program loads.
import { register } from 'node:module';

register(new URL('./import-trace-hooks.mjs', import.meta.url));
