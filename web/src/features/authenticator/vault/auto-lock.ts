import { useEffect, useState } from 'react';
import type { VaultSession } from './session';

/** Idle minutes before the vault locks itself; 0: only when the page closes or the person signs out. */
export const AUTO_LOCK_CHOICES = [1, 5, 15, 60, 0] as const;
export type AutoLockMinutes = (typeof AUTO_LOCK_CHOICES)[number];
const STORAGE_KEY = 'sixdigit.vault.autoLockMinutes';
const DEFAULT_MINUTES: AutoLockMinutes = 5;

function stored(): AutoLockMinutes {
  try {
    const value = Number(localStorage.getItem(STORAGE_KEY));
    return (AUTO_LOCK_CHOICES as readonly number[]).includes(value) && localStorage.getItem(STORAGE_KEY) !== null ? (value as AutoLockMinutes) : DEFAULT_MINUTES;
  } catch {
    return DEFAULT_MINUTES;
  }
}

/** The chosen idle time (kept on this device), and the timer that locks after it. */
export function useAutoLock(session: VaultSession, unlocked: boolean) {
  const [minutes, setMinutesState] = useState<AutoLockMinutes>(stored);
  const setMinutes = (next: AutoLockMinutes) => {
    setMinutesState(next);
    try {
      localStorage.setItem(STORAGE_KEY, String(next));
    } catch {
      // private mode: the choice lasts for this page
    }
  };
  useEffect(() => {
    if (!unlocked || minutes === 0) return;
    const limit = minutes * 60_000;
    let last = Date.now();
    const touch = () => {
      last = Date.now();
    };
    // Checked every few seconds rather than one long timer: a sleeping laptop's timers pause,
    // but the wall clock does not, so waking after the limit locks at once.
    const check = setInterval(() => {
      if (Date.now() - last >= limit) session.lock();
    }, 5_000);
    const events = ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const;
    for (const name of events) window.addEventListener(name, touch, { passive: true });
    return () => {
      clearInterval(check);
      for (const name of events) window.removeEventListener(name, touch);
    };
  }, [session, unlocked, minutes]);
  return { minutes, setMinutes };
}
