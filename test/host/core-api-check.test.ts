// Issue 54: a build missing what the core API needs refuses to start and says what to add.
// Leaving `discovery` out of a team's build used to start a host whose GET /handlers and
// GET /providers answered 404, with nothing saying why.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHost } from '../../host/create-host.js';
import { silentLogger } from '../../core/kernel/logger.js';
import { defaultPlugins } from '../../plugins/index.js';
import { testConfig } from '../../sdk/testing/start-test-host.js';

const test = suite('host: a build lacking what the core API needs does not start');
const without = (...ids: string[]) => defaultPlugins.filter((p) => !ids.includes(p.id));
const build = (plugins: typeof defaultPlugins, coreApi?: boolean) =>
  createHost({
    plugins,
    env: {},
    logger: silentLogger,
    listen: false,
    config: testConfig({}),
    ...(coreApi === undefined ? {} : { coreApi }),
  });

test('without discovery: start-up stops naming GET /handlers and the built-in to add', async () => {
  try {
    const host = await build(without('discovery'));
    await host.stop();
    assert.unreachable('the host started');
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, /lacks what the core API needs: GET \/handlers and GET \/providers \(add the built-in 'discovery'/);
    assert.not.match(message, /steps-core|intervals-core/);
  }
});

test('without steps-core and intervals-core: both are named', async () => {
  try {
    const host = await build(without('steps-core', 'intervals-core'));
    await host.stop();
    assert.unreachable('the host started');
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, /the step types fetch, ai, publish and update \(add the built-in 'steps-core'/);
    assert.match(message, /the schedule interval manual \(add the built-in 'intervals-core'/);
  }
});

test('the stock list starts; a plugin test host may say coreApi: false', async () => {
  const stock = await build(defaultPlugins);
  await stock.stop();
  const partial = await build([], false);
  await partial.stop();
});

test.run();
