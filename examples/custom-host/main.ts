// node dist/examples/custom-host/main.js — serves the custom build until Ctrl-C.
import { buildCustomHost } from './build.js';

const host = await buildCustomHost();
await host.start();
const stop = async () => {
  await host.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
