/** The signed-in player's own account: balance, profile, password, PIN, UI settings and shortcuts. */
import { ApiPath, BalanceResponse, ChangePasswordRequest, Code, LogType, NEW_PASSWORD_MIN_LENGTH, OkResponse, ProfileResponse, SetPinRequest, UserUpdateRequest, UserUpdateResponse, VerifyPinRequest } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { PLAYERS } from '../../lib/route-access.js';
import { hashSecret } from '../../lib/passwords.js';
import { underApiBase } from '../../lib/paths.js';
import { walletBalance } from '../ledger/ledger.js';
import { writeAuthLog } from '../auth/auth-log.js';
import { checkSecretWithLockout, type LockoutPolicy } from '../auth/credentials.js';
import { readCredentials, readProfile, setPasswordHash, setPinHash, updateUiSettings } from './player-queries.js';

const SETTINGS_MAX_BYTES = 16 * 1024;

interface PlayerRouteDeps {
  db: Db;
  config: { passwordMaxAgeDays: number; login: LockoutPolicy };
}

export const playerRoutes: FastifyPluginAsyncTypebox<PlayerRouteDeps> = async (app, deps) => {
  const { db, config } = deps;
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('player');

  app.get(ApiPath.balance, { ...secured, schema: schema({ response: { 200: BalanceResponse, ...errorResponses } }) }, async (request) => ({
    status: true,
    code: Code.Success,
    currency: 'TRY',
    ...(await walletBalance(db, request.auth.id)),
  }));

  app.get(ApiPath.profile, { ...secured, schema: schema({ response: { 200: ProfileResponse, ...errorResponses } }) }, async (request) => {
    const p = await readProfile(db, request.auth.id, config.passwordMaxAgeDays);
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

  // The three routes that check a password or PIN share the sign-in's lockout and rate limit:
  // a stolen token gets no more guesses than the sign-in form (credentials.ts).
  const credentials = (playerId: number) => readCredentials(db, playerId);
  const guarded = { ...secured, onRequest: app.credentialRateLimit };

  app.post(
    ApiPath.changePassword,
    { ...guarded, schema: schema({ body: ChangePasswordRequest, response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      const { old_password, new_password } = request.body;
      const player = await credentials(request.auth.id);
      await checkSecretWithLockout(deps, {
        player,
        hash: player.password_hash,
        secret: old_password,
        ip: request.ip,
        username: player.username,
        detail: { via: 'change password' },
        wrong: (params) => new AppError(Code.OldPasswordWrong, 400, params),
      });
      if (new_password.length < NEW_PASSWORD_MIN_LENGTH) {
        throw new AppError(Code.PasswordTooShort, 400, { min_length: NEW_PASSWORD_MIN_LENGTH });
      }
      await setPasswordHash(db, request.auth.id, await hashSecret(new_password));
      await writeAuthLog(db, { playerId: request.auth.id, type: LogType.ChangedPassword, ip: request.ip });
      return { status: true, code: Code.Success };
    },
  );

  // Setting a PIN needs the password, so a borrowed unlocked screen cannot change it.
  app.post(
    ApiPath.setPin,
    { ...guarded, schema: schema({ body: SetPinRequest, response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      const player = await credentials(request.auth.id);
      await checkSecretWithLockout(deps, {
        player,
        hash: player.password_hash,
        secret: request.body.password,
        ip: request.ip,
        username: player.username,
        detail: { via: 'set PIN' },
        wrong: (params) => new AppError(Code.OldPasswordWrong, 400, params),
      });
      await setPinHash(db, request.auth.id, await hashSecret(request.body.pin));
      return { status: true, code: Code.Success };
    },
  );

  app.post(
    ApiPath.verifyPin,
    { ...guarded, schema: schema({ body: VerifyPinRequest, response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      const player = await credentials(request.auth.id);
      await checkSecretWithLockout(deps, {
        player,
        hash: player.pin_hash,
        secret: request.body.pin,
        ip: request.ip,
        username: player.username,
        detail: { via: 'PIN check' },
        wrong: (params) => new AppError(Code.PinWrong, 400, params),
      });
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
      const stored = await updateUiSettings(db, request.auth.id, settings, shortcuts);
      return { status: true, code: Code.Success, ...stored };
    },
  );
};
