/** The calendar-day rule lives in the contract (the web's date filters send it); the CLI reuses it. */
export { isoDate } from '@common/contract/shared';
