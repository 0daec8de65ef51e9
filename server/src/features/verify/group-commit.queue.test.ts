import { describe, expect, it } from 'vitest';
import { GroupCommit, type GroupCommitOptions } from './group-commit';

/** A GroupCommit whose writes finish only when the test says so; it records each group's items. */
function controlledGroups(options: Partial<GroupCommitOptions<string>>) {
  const groups: Array<{ items: string[]; finish: () => void }> = [];
  const commit = new GroupCommit<string, string>(
    (_, items) =>
      new Promise((resolve) => {
        groups.push({ items, finish: () => resolve(items.map((i) => `${i} written`)) });
      }),
    { maxInFlight: 2, maxGroup: 256, distinctKey: () => null, ...options },
  );
  return { commit, groups };
}

/** Past the setImmediate a group starts from, and the promise callbacks of a finished one. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit: when a group starts beside one in flight', () => {
  it('by default a second group of one starts while the first is in flight', async () => {
    const { commit, groups } = controlledGroups({});
    const first = commit.submit('live', 'a');
    await settle();
    const second = commit.submit('live', 'b');
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a'], ['b']]);
    groups.forEach((g) => g.finish());
    expect(await Promise.all([first, second])).toEqual(['a written', 'b written']);
  });

  it('with minToOverlap, fewer waiting than that wait for the group in flight instead of starting beside it', async () => {
    const { commit, groups } = controlledGroups({ minToOverlap: 3 });
    const answers = [commit.submit('live', 'a')];
    await settle();
    answers.push(commit.submit('live', 'b'), commit.submit('live', 'c'));
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a']]);

    // The group in flight finishes: the two waiting start together at once, below the minimum.
    groups[0]!.finish();
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a'], ['b', 'c']]);
    groups[1]!.finish();
    expect(await Promise.all(answers)).toEqual(['a written', 'b written', 'c written']);
  });

  it('with minToOverlap, a second group starts beside the first as soon as that many wait', async () => {
    const { commit, groups } = controlledGroups({ minToOverlap: 3 });
    const answers = [commit.submit('live', 'a')];
    await settle();
    answers.push(commit.submit('live', 'b'), commit.submit('live', 'c'));
    await settle();
    answers.push(commit.submit('live', 'd'));
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a'], ['b', 'c', 'd']]);
    groups.forEach((g) => g.finish());
    expect(await Promise.all(answers)).toEqual(['a written', 'b written', 'c written', 'd written']);
  });

  it('never more than maxInFlight groups, however many wait', async () => {
    const { commit, groups } = controlledGroups({ minToOverlap: 2 });
    const answers = ['a', 'b', 'c'].map((i) => commit.submit('live', i));
    await settle();
    answers.push(...['d', 'e', 'f'].map((i) => commit.submit('live', i)));
    await settle();
    answers.push(...['g', 'h'].map((i) => commit.submit('live', i)));
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a', 'b', 'c'], ['d', 'e', 'f']]);
    groups[0]!.finish();
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g', 'h']]);
    groups.slice(1).forEach((g) => g.finish());
    expect(await Promise.all(answers)).toHaveLength(8);
  });

  it('queues apart: a group in flight in one queue does not hold back another queue', async () => {
    const { commit, groups } = controlledGroups({ minToOverlap: 3 });
    const live = commit.submit('live', 'a');
    await settle();
    const test = commit.submit('test', 'b');
    await settle();
    expect(groups.map((g) => g.items)).toEqual([['a'], ['b']]);
    groups.forEach((g) => g.finish());
    expect(await Promise.all([live, test])).toEqual(['a written', 'b written']);
  });
});
