// The sandbox's scheduler: tasks run once the clock reaches them, earliest first, at any scale.
import { describe, expect, it } from 'vitest';
import { createSandbox } from './app.js';
import { SandboxClock, Scheduler } from './clock.js';

const frozenScheduler = () => {
  const clock = new SandboxClock({ frozen: true, start: new Date('2026-01-01T00:00:00Z') });
  const errors: unknown[] = [];
  return { clock, errors, scheduler: new Scheduler(clock, (error) => errors.push(error)) };
};

describe('Scheduler', () => {
  it('runs due tasks earliest first, ties in the order they were scheduled, and none twice', () => {
    const { clock, scheduler } = frozenScheduler();
    const ran: string[] = [];
    scheduler.after(30, () => ran.push('c'));
    scheduler.after(10, () => ran.push('a1'));
    scheduler.after(10, () => ran.push('a2'));
    scheduler.after(20, () => ran.push('b'));
    clock.advance(20);
    scheduler.runDue();
    expect(ran).toEqual(['a1', 'a2', 'b']);
    clock.advance(10);
    scheduler.runDue();
    scheduler.runDue();
    expect(ran).toEqual(['a1', 'a2', 'b', 'c']);
  });

  it('skips cancelled tasks, runs tasks that due tasks schedule, and survives a task that throws', () => {
    const { clock, errors, scheduler } = frozenScheduler();
    const ran: string[] = [];
    scheduler.after(5, () => ran.push('cancelled')).cancel();
    scheduler.after(5, () => {
      ran.push('first');
      scheduler.after(0, () => ran.push('follow-up'));
    });
    scheduler.after(6, () => {
      throw new Error('boom');
    });
    scheduler.after(7, () => ran.push('after the failure'));
    clock.advance(10);
    scheduler.runDue();
    // The follow-up is due now (10), after the task due at 7.
    expect(ran).toEqual(['first', 'after the failure', 'follow-up']);
    expect(errors).toHaveLength(1);
  });

  it('keeps order when most tasks are cancelled, even cancelled twice or after they ran', () => {
    const { clock, scheduler } = frozenScheduler();
    const ran: number[] = [];
    const tasks = Array.from({ length: 5_000 }, (_, i) => scheduler.after(5_000 - i, () => ran.push(5_000 - i)));
    clock.advance(1);
    scheduler.runDue(); // the task due at 1 runs; cancelling it later changes nothing
    tasks.forEach((task, i) => {
      if (i % 5 !== 0) task.cancel();
      if (i % 7 === 0) task.cancel();
    });
    clock.advance(5_000);
    scheduler.runDue();
    const kept = tasks.map((_, i) => i).filter((i) => i % 5 === 0 && i % 7 !== 0);
    expect(ran).toEqual([1, ...kept.map((i) => 5_000 - i).reverse()]);
  });

  it('holds 200,000 pending tasks and runs them all in order', () => {
    const { clock, scheduler } = frozenScheduler();
    const count = 200_000;
    const ran: number[] = [];
    // A fixed permutation of due times, so the heap sees them out of order.
    for (let i = 0; i < count; i += 1) {
      const due = (i * 7_919) % count;
      const task = scheduler.after(due + 1, () => ran.push(due));
      if (i % 10 === 0) task.cancel();
    }
    scheduler.runDue(); // nothing due yet: as on every request
    expect(ran).toEqual([]);
    clock.advance(count);
    scheduler.runDue();
    expect(ran).toHaveLength(count - count / 10);
    expect(ran.every((due, i) => i === 0 || ran[i - 1]! < due)).toBe(true);
  });
});

describe('Scheduler on a running clock', () => {
  const runningScheduler = () => {
    const clock = new SandboxClock({ frozen: false });
    return { clock, scheduler: new Scheduler(clock, () => undefined) };
  };
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const poll = setInterval(() => done() && (clearInterval(poll), resolve()), 2);
    });

  it('runs a task on its timer while requests keep finding nothing due', async () => {
    const { scheduler } = runningScheduler();
    let ran = false;
    scheduler.after(40, () => (ran = true));
    // Every request runs what is due; the timer for the task must survive them.
    const requests = setInterval(() => scheduler.runDue(), 1);
    await until(() => ran);
    clearInterval(requests);
    expect(ran).toBe(true);
    scheduler.stop();
  });

  it('fires a task on time once the clock is advanced towards it', async () => {
    const { clock, scheduler } = runningScheduler();
    let ran = false;
    scheduler.after(3_600_000, () => (ran = true));
    scheduler.runDue();
    clock.advance(3_600_000 - 20);
    scheduler.runDue(); // not due yet: its timer now fires in 20 ms, not in an hour
    await until(() => ran);
    expect(ran).toBe(true);
    scheduler.stop();
  });
});

describe('a sandbox with 200,000 pending tasks', () => {
  it('still answers requests', async () => {
    const sandbox = createSandbox({ frozenClock: true });
    try {
      for (let i = 0; i < 200_000; i += 1) sandbox.sandbox.gateway.scheduler.after(60_000 + i, () => undefined);
      const response = await sandbox.request('/health');
      expect(response.status).toBe(200);
    } finally {
      await sandbox.sandbox.stop();
    }
  });
});
