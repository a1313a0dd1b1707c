// The pure parts of the scheduler backend: filters from Agenda's options and unique keys.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { filterFromQueryOptions, filterFromRemoveOptions, sortFromQueryOptions } from '../../../host/scheduler/job-filters.js';
import { uniqueKeyFor } from '../../../host/scheduler/unique-key.js';

const filters = suite('scheduler: filters from Agenda options');

filters('remove options with nothing selected give no filter, never "everything"', () => {
  assert.is(filterFromRemoveOptions({}), null);
  assert.is(filterFromRemoveOptions({ names: [], notNames: [] }), null);
  assert.is(filterFromRemoveOptions({ name: '' }), null);
  // Non-strings smuggled in through untyped callers are dropped, not turned into operators.
  assert.is(filterFromRemoveOptions({ names: [{ $ne: null }] as unknown as string[] }), null);
});

filters('ids, names and nested data become a port filter', () => {
  assert.equal(filterFromRemoveOptions({ ids: ['a', 'b'], notNames: ['x'], data: { flowId: 3, meta: { k: 'v' } } }), {
    _id: { $in: ['a', 'b'] },
    name: { $nin: ['x'] },
    'data.flowId': 3,
    'data.meta.k': 'v',
  });
  assert.equal(filterFromRemoveOptions({ data: 5 }), { data: 5 });
});

filters('search is an escaped case-insensitive regex; disabled jobs can be left out', () => {
  assert.equal(filterFromQueryOptions({ search: 'a.b(', includeDisabled: false }), {
    name: { $regex: 'a\\.b\\(', $options: 'i' },
    disabled: { $ne: true },
  });
});

filters('sort keeps what the port can order and defaults to newest first', () => {
  assert.equal(sortFromQueryOptions(undefined), { nextRunAt: -1, lastRunAt: -1 });
  assert.equal(sortFromQueryOptions({ priority: 'desc', name: 'asc' }), { priority: -1, name: 1 });
  assert.equal(sortFromQueryOptions({ data: 'asc' }), { nextRunAt: -1, lastRunAt: -1 });
});

filters.run();

const keys = suite('scheduler: unique keys');

keys('equality queries give a key that ignores field order and includes the name', () => {
  const k = uniqueKeyFor('flow.run', { 'data.flowId': 7, 'data.env': 'prod' });
  assert.type(k, 'string');
  assert.is(uniqueKeyFor('flow.run', { 'data.env': 'prod', 'data.flowId': 7 }), k);
  assert.is.not(uniqueKeyFor('other', { 'data.flowId': 7, 'data.env': 'prod' }), k);
  assert.is.not(uniqueKeyFor('flow.run', { 'data.flowId': '7', 'data.env': 'prod' }), k, 'types matter');
});

keys('operators, objects, nulls and empty queries give no key', () => {
  assert.is(uniqueKeyFor('x', {}), undefined);
  assert.is(uniqueKeyFor('x', { 'data.n': { $gt: 1 } }), undefined);
  assert.is(uniqueKeyFor('x', { $or: [] }), undefined);
  assert.is(uniqueKeyFor('x', { 'data.n': null }), undefined);
  assert.is(uniqueKeyFor('x', { 'data.d': new Date() }), undefined);
});

keys.run();
