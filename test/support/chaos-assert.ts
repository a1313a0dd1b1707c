// The chaos suites' assertions (issue 53): 0 lost, 0 run twice, 0 left unfinished.
import * as assert from 'uvu/assert';
import type { ChaosOutcome } from './chaos-scenario.js';

export function assertChaosOutcome(label: string, outcome: ChaosOutcome): void {
  const { verdict: v } = outcome;
  console.log(
    `  ${label}: ${JSON.stringify(v.counts)}; hosts up in ${outcome.upMs} ms; settled ${outcome.settledMs} ms after the load, ${outcome.sinceLastKillMs} ms after the last kill`,
  );
  const show = (what: unknown) => `${JSON.stringify(what).slice(0, 2000)}\n${outcome.output.slice(-4000)}`;
  assert.ok(v.counts.kills! >= 2, `hosts were killed (${v.counts.kills})`);
  assert.ok(v.counts.acknowledged! > 0, 'requests were acknowledged');
  assert.equal(v.lost, [], `every acknowledged request has its job: ${show(v.lost)}`);
  assert.equal(v.unfinished, [], `nothing pending or processing after ${outcome.quietMs} ms of quiet: ${show(v.unfinished)}`);
  assert.equal(v.badEnd, [], `every job completed or failed as interrupted: ${show(v.badEnd)}`);
  assert.equal(v.ranTwice, [], `no job ran twice: ${show(v.ranTwice)}`);
  assert.equal(v.twoJobs, [], `no request made two jobs: ${show(v.twoJobs)}`);
  assert.equal(v.postedTwice, [], `no item published twice: ${show(v.postedTwice)}`);
  assert.equal(v.unpublished, [], `every completed run's post can be read: ${show(v.unpublished)}`);
  assert.equal(v.late, [], `every delayed execute ran near its time: ${show(v.late)}`);
}
