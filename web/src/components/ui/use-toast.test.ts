import { describe, expect, it } from 'vitest';
import { reducer, TOAST_LIMIT, TOAST_REMOVE_DELAY } from './use-toast';

describe('toast store', () => {
  it('keeps at most one toast: a new toast replaces the visible one', () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '1', title: 'First' } });
    state = reducer(state, { type: 'ADD_TOAST', toast: { id: '2', title: 'Second' } });
    expect(state.toasts.map((t) => t.title)).toEqual(['Second']);
  });

  it('closes a dismissed toast and removes it only after the long removal delay', () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '1', open: true } });
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([expect.objectContaining({ id: '1', open: false })]);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });
});
