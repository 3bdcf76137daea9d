/**
 * `API_URL` moves the whole backend (issue 25): the web app is served from one origin (a static
 * server, as a CDN would) and the product's API from another. Signing in, the lobby and its
 * pictures, the notification and game sockets and the video's WHEP calls all reach the backend's
 * origin by themselves; the web app's own origin serves nothing but files.
 */
import { expect, test } from '../product/fixtures';
import { workerFrontPort, workerProduct } from '../product/instances';
import { cashIn, cashOut, credits, joinFromLobby, waitFirstFrame } from '../play/play-helpers';
import { apiToken, createPlayer, operator, signIn, useEnglish } from './helpers';
import { serveFront, type StaticFront } from './static-front';

const MACHINE = 6;
const API_ORIGIN = workerProduct().url;

let front: StaticFront;
test.beforeAll(async () => {
  // IP_CHEKCING on: the web app asks {API_URL}../check too (the product's policy is off: allowed).
  front = await serveFront(workerFrontPort(), { API_URL: `${API_ORIGIN}/api/`, IP_CHEKCING: true });
});
test.afterAll(() => front?.close());

test('a web app on another origin signs in, shows the lobby and plays a machine with video through API_URL', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const player = createPlayer('apiurl');
  operator('deposit', player.username, '20.00');
  const token = await apiToken(request, player.username, player.password);
  const context = await browser.newContext({ baseURL: front.url });
  const page = await context.newPage();
  await useEnglish(page);
  const calls: string[] = [];
  const sockets: string[] = [];
  page.on('request', (r) => calls.push(`${r.method()} ${r.url()}`));
  page.on('websocket', (socket) => sockets.push(socket.url()));

  await signIn(page, player.username, player.password);
  expect(new URL(page.url()).origin).toBe(front.url);
  // The lobby's pictures come from the backend too, and load.
  const picture = page.locator('article[data-machine-id] img').first();
  await expect(picture).toHaveAttribute('src', new RegExp(`^${API_ORIGIN}/api/machine/\\d+/image`));
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await joinFromLobby(page, request, token, MACHINE);
  await waitFirstFrame(page);
  await cashIn(page, /^Load ₺5,00$/, 500);
  await cashOut(page);
  expect(await credits(page)).toBe(0);

  const backendCalls = calls.filter((call) => /\/(api|ws)\/|\/check\b/.test(call));
  expect(backendCalls.filter((call) => !call.split(' ')[1]!.startsWith(API_ORIGIN)), 'calls to the web app origin').toEqual([]);
  expect(backendCalls).toContainEqual(`POST ${API_ORIGIN}/api/login`);
  expect(backendCalls).toContainEqual(`GET ${API_ORIGIN}/check`);
  expect(backendCalls).toContainEqual(`POST ${API_ORIGIN}/api/media/whep/${MACHINE}`);
  const wsOrigin = API_ORIGIN.replace(/^http/, 'ws');
  expect(sockets.some((url) => url.startsWith(`${wsOrigin}/ws/notifications?`))).toBe(true);
  expect(sockets.some((url) => url.startsWith(`${wsOrigin}/ws/game?`))).toBe(true);
  expect(sockets.filter((url) => !url.startsWith(wsOrigin)), 'sockets to the web app origin').toEqual([]);
  await context.close();
});
