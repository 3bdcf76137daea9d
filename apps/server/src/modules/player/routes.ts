/** The signed-in player's own account: balance, profile, password, PIN, UI settings and shortcuts. */
import { ApiPath, BalanceResponse, ChangePasswordRequest, Code, LogType, OkResponse, ProfileResponse, SetPinRequest, UserUpdateRequest, UserUpdateResponse, VerifyPinRequest } from '@reel/protocol';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { RouteModule } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, verifySecret } from '../../lib/passwords.js';
import { underApiBase } from '../../lib/paths.js';
import { walletBalance } from '../ledger/ledger.js';
import { writeAuthLog } from '../auth/login.js';

const SETTINGS_MAX_BYTES = 16 * 1024;

export const playerRoutes: RouteModule = async (app, ctx) => {
  const { db, config } = ctx;
  const secured = { preHandler: app.authenticate };
  const schema = securedSchema('player');

  app.get(ApiPath.balance, { ...secured, schema: schema({ response: { 200: BalanceResponse, ...errorResponses } }) }, async (request) => ({
    status: true,
    code: Code.Success,
    currency: 'TRY',
    ...(await walletBalance(db, request.auth.id)),
  }));

  app.get(ApiPath.profile, { ...secured, schema: schema({ response: { 200: ProfileResponse, ...errorResponses } }) }, async (request) => {
    const { rows } = await db.query(
      `SELECT id, name, lastname, email, username, group_name, permissions, last_logon, last_logon_ip,
              password_changed_at, pin_hash IS NOT NULL AS has_pin, settings, shortcuts,
              (password_changed_at IS NULL OR password_changed_at < now() - make_interval(days => $2)) AS password_expired
         FROM players WHERE id = $1`,
      [request.auth.id, config.passwordMaxAgeDays],
    );
    const p = rows[0];
    return {
      status: true,
      code: Code.Success,
      id: p.id,
      name: p.name,
      lastname: p.lastname,
      email: p.email,
      username: p.username,
      group: p.group_name,
      Permissions: p.permissions,
      ip_address: request.ip ?? '',
      last_logon: p.last_logon?.toISOString() ?? null,
      last_logon_ip: p.last_logon_ip,
      password_changed_at: p.password_changed_at?.toISOString() ?? null,
      password_expired: p.password_expired,
      pin_code: p.has_pin,
      settings: p.settings,
      shortcuts: p.shortcuts,
    };
  });

  app.post(
    ApiPath.changePassword,
    { ...secured, schema: schema({ body: ChangePasswordRequest, response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      const { old_password, new_password } = request.body;
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM players WHERE id = $1', [request.auth.id]);
      if (!(await verifySecret(rows[0]?.password_hash, old_password))) throw new AppError(Code.OldPasswordWrong, 400);
      if (new_password.length < config.passwordMinLength) {
        throw new AppError(Code.PasswordTooShort, 400, { min_length: config.passwordMinLength });
      }
      await db.query('UPDATE players SET password_hash = $2, password_changed_at = now() WHERE id = $1', [
        request.auth.id,
        await hashSecret(new_password),
      ]);
      await writeAuthLog(db, { playerId: request.auth.id, type: LogType.ChangedPassword, ip: request.ip });
      return { status: true, code: Code.Success };
    },
  );

  // Setting a PIN needs the password, so a borrowed unlocked screen cannot change it.
  app.post(
    ApiPath.setPin,
    { ...secured, schema: schema({ body: SetPinRequest, response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM players WHERE id = $1', [request.auth.id]);
      if (!(await verifySecret(rows[0]?.password_hash, request.body.password))) throw new AppError(Code.OldPasswordWrong, 400);
      await db.query('UPDATE players SET pin_hash = $2 WHERE id = $1', [request.auth.id, await hashSecret(request.body.pin)]);
      return { status: true, code: Code.Success };
    },
  );

  app.post(
    ApiPath.verifyPin,
    {
      ...secured,
      schema: schema({ body: VerifyPinRequest, response: { 200: OkResponse, ...errorResponses } }),
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { rows } = await db.query<{ pin_hash: string | null }>('SELECT pin_hash FROM players WHERE id = $1', [request.auth.id]);
      if (!(await verifySecret(rows[0]?.pin_hash, request.body.pin))) throw new AppError(Code.PinWrong, 400);
      return { status: true, code: Code.Success };
    },
  );

  app.post(
    underApiBase(ApiPath.userUpdate),
    { ...secured, schema: schema({ body: UserUpdateRequest, response: { 200: UserUpdateResponse, ...errorResponses } }) },
    async (request) => {
      const { settings, shortcuts } = request.body.user;
      if (settings && Buffer.byteLength(JSON.stringify(settings)) > SETTINGS_MAX_BYTES) {
        throw new AppError(Code.InvalidRequest, 400, {}, 'settings are too large');
      }
      const { rows } = await db.query<{ settings: Record<string, unknown>; shortcuts: string[] }>(
        `UPDATE players SET settings = coalesce($2::jsonb, settings), shortcuts = coalesce($3::text[], shortcuts)
          WHERE id = $1 RETURNING settings, shortcuts`,
        [request.auth.id, settings ? JSON.stringify(settings) : null, shortcuts ?? null],
      );
      return { status: true, code: Code.Success, ...rows[0]! };
    },
  );
};
