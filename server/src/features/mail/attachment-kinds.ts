/**
 * Every module that registers an attachment renderer (`registerAttachment`), imported here so any
 * process that sends mail knows every kind a queued mail may name. Add a line per new kind.
 */
import '../receipts/mail-attachment';
