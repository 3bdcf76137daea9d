/**
 * The contract values the console uses. packages/protocol keeps them in admin.ts beside their
 * schemas, and that file is not part of `@reel/protocol/client`: importing them from the package
 * root brings the schema library into the console's lazy chunk (never the player's). When the
 * values move into a schema-free file exported by `/client`, only this line changes.
 */
export {
  ADMIN_WS_PATH,
  AdminChatPath,
  AdminFloorPath,
  AdminHandPayPath,
  AdminPath,
  ContactStatus,
  LedgerAccountKind,
  OperatorRole,
} from '@reel/protocol';
