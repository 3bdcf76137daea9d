/**
 * The error and info catalogue (spec section 8) plus the codes this platform adds.
 * Texts carry `{placeholders}` filled from a response's `Params`.
 * The web app translates by code and falls back to the server's `ErrorMessage`.
 */
export const Code = {
  SignatureNotVerified: 10,
  Success: 20000,
  InvalidRequest: 40000,
  OldPasswordWrong: 40001,
  PinWrong: 40002,
  /** An operator action without a reason (every console action is audited with its why). */
  ReasonRequired: 40003,
  PasswordTooShort: 40101,
  InvalidAccessToken: 40102,
  AccessTokenExpired: 40103,
  Forbidden: 40300,
  RegistrationClosed: 40301,
  /** The camera view was asked for while SHOW_WEBCAM is off, or the machine cannot show it. */
  CameraUnavailable: 40302,
  /** A WHEP call without a valid video grant for that machine (missing, malformed, forged, expired, another machine's). */
  VideoGrantRefused: 40303,
  /** A valid token whose roles the route does not allow (a player's token on a staff route). */
  RoleNotAllowed: 40304,
  /** An operator tried to change their own role or status. */
  OwnAccountNotAllowed: 40305,
  /** Player protection: sign-in (any channel) during a cool-off the player took. Params: until (ISO). */
  CoolingOff: 40310,
  /** AUTOPLAY_ALLOWED is off (a jurisdiction rule): autoplay is refused. */
  AutoplayNotAllowed: 40312,
  /** Player protection: sign-in (any channel) during a self-exclusion. Params: until (ISO). */
  SelfExcluded: 40311,
  NotFound: 40400,
  IdempotencyConflict: 40900,
  RequestTooLarge: 41300,
  /** The client speaks another version of the browser channels' protocol (PROTOCOL_VERSION). */
  ProtocolMismatch: 42600,
  TooManyRequests: 42900,
  InsufficientBalance: 40201,
  DiscountBalanceTooHigh: 40202,
  DiscountCooldown: 40203,
  PromotionDisabled: 40204,
  CashInLimit: 40205,
  /**
   * Player protection (issue 28): a cash in above what the player's own deposit limit still allows,
   * one code per period. Params: limit_key, limit, left, resets (ISO time the period ends).
   */
  DepositLimitDay: 40210,
  DepositLimitWeek: 40211,
  DepositLimitMonth: 40212,
  /** A spin whose bet the player's loss limit no longer allows. Params as the deposit limits'. */
  LossLimitDay: 40213,
  LossLimitWeek: 40214,
  LossLimitMonth: 40215,
  /** The play session has lasted the player's session time limit. Params: limit_key, minutes. */
  SessionTimeLimit: 40216,
  MachineBusy: 40901,
  OpenSessionElsewhere: 40902,
  MachineNotAvailable: 40903,
  /** An operator account with that username exists already. */
  UsernameTaken: 40904,
  /** Staff stopped the machine (the console's emergency stop): it refuses every command until released. */
  MachineStopped: 40905,
  /** A win at or above HAND_PAY_LIMIT waits for staff: the session is locked until it is paid. */
  HandPayWaiting: 40906,
  /** The hand pay was paid (or is not waiting) already. */
  HandPayNotWaiting: 40907,
  /** The second signature of a hand pay came from the staff member who signed first. */
  SecondSignerSame: 40306,
  NoOpenSession: 40404,
  /** A limit confirmation with no raise waiting for it. */
  NoPendingLimit: 40405,
  /** A raise confirmed before LIMIT_INCREASE_DELAY_H has passed since it was asked for. Params: limit_key, at. */
  LimitRaiseNotDue: 40910,
  /**
   * The reality check is due: the spin is held until the player acknowledges it. Params: minutes,
   * spins, money_in, money_out, net (amounts as decimals), elapsed_s.
   */
  RealityCheckDue: 40920,
  /** MAX_WATCHERS_PER_MACHINE spectators watch the machine already. Params: max. */
  WatchersFull: 40935,
  /** The machine is not being played (nor waiting for its player): there is nothing to watch. */
  NothingToWatch: 40936,
  /** A spectator sent a play command on the watch channel: a spectator can never play. */
  SpectatorCannotPlay: 40307,
  /** MIN_SPIN_INTERVAL_MS: a spin that starts too soon after the last one. Params: wait_ms. */
  SpinTooSoon: 40921,
  /** The queue (issue 29): the player is in another machine's queue already (one live entry). Params: machine. */
  QueueElsewhere: 40930,
  /** The machine is free and nobody waits for it: join it instead of queueing. */
  QueueMachineFree: 40931,
  /** The machine is out of service, offline or broken: there is nothing to queue for. */
  QueueNotQueueable: 40932,
  /** The player has an open session (on that machine, or another): finish it first. Params: machine. */
  QueueWhilePlaying: 40933,
  /** A join refused: the machine is held for the players in its queue (the first has a ready check). */
  MachineHeldForQueue: 40934,
  /** Leaving or reading a queue entry the player does not have. */
  NotInQueue: 40406,
  MachineNoAnswer: 50300,
  /** The cabinet's meters do not follow from the recorded game cycles: the session is settled from the records. */
  MachineMalfunction: 50301,
  InternalError: 50000,
  SessionTerminated: 50100,
  PipelineFailed: 70000,
  /** The machine runs without video (a headless cabinet, `--no-video`): playable through the API, not watchable. */
  MachineWithoutVideo: 70001,
  LoginIncorrect: 10700,
  LoginUnknownUser: 10701,
  LoginBlocked: 10702,
  LoginIpNotPermitted: 10703,
  LoginBanned: 10704,
  /** An operator account that an admin disabled. */
  OperatorDisabled: 10705,
  InfoDepositCountdown: 18800,
  InfoSessionTerminating: 18801,
  InfoContinueCountdown: 18802,
  /** Autoplay ended at the player's own stops (`autoplay.stops`), sent as a game channel `info`. Params: spins. */
  AutoplaySpinsDone: 18810,
  /** Params: loss (lost since autoplay started), limit (the player's stop), amounts as decimals. */
  AutoplayLossReached: 18811,
  /** Params: win (the game's win), limit (the player's stop), amounts as decimals. */
  AutoplayWinReached: 18812,
  /** The queue's ready check: the machine is free and held for the player. Params: machine, seconds. */
  QueueReadyCheck: 18820,
  /** Nobody answered the ready check in time: the turn passed to the next in line. Params: machine. */
  QueueTurnPassed: 18821,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export type CatalogueLanguage = 'en' | 'tr';

/** en/tr texts per code. Codes marked (spec) keep the spec's English wording exactly. */
export const catalogue: Record<Code, Record<CatalogueLanguage, string>> = {
  [Code.SignatureNotVerified]: { en: "Signature Doesn't Verified", tr: 'İmza doğrulanamadı' }, // (spec)
  [Code.Success]: { en: 'Request Successfull', tr: 'İstek başarılı' }, // (spec)
  [Code.InvalidRequest]: { en: 'Invalid request', tr: 'Geçersiz istek' }, // (spec)
  [Code.OldPasswordWrong]: { en: 'Old password is wrong', tr: 'Eski şifre yanlış' }, // (spec)
  [Code.PinWrong]: { en: 'PIN is wrong', tr: 'PIN yanlış' },
  [Code.ReasonRequired]: { en: 'Please give a reason for this action', tr: 'Lütfen bu işlem için bir neden belirtin' },
  [Code.PasswordTooShort]: { en: 'Password is too short', tr: 'Şifre çok kısa' }, // (spec)
  [Code.InvalidAccessToken]: { en: 'Invalid access_token', tr: 'Geçersiz access_token' },
  [Code.AccessTokenExpired]: { en: 'access_token expired', tr: 'access_token süresi doldu' },
  [Code.Forbidden]: { en: 'You are not allowed to do this', tr: 'Bu işlem için yetkiniz yok' },
  [Code.RegistrationClosed]: {
    en: 'Registration is closed, please contact support',
    tr: 'Kayıt kapalı, lütfen destek ile iletişime geçin',
  },
  [Code.CameraUnavailable]: {
    en: 'The camera view is not available on this machine',
    tr: 'Bu makinede kamera görüntüsü kullanılamıyor',
  },
  [Code.VideoGrantRefused]: {
    en: 'The video permit is missing, expired or not for this machine',
    tr: 'Video izni yok, süresi dolmuş ya da bu makine için değil',
  },
  [Code.RoleNotAllowed]: {
    en: 'Your account does not have the role this needs',
    tr: 'Hesabınız bu işlem için gereken role sahip değil',
  },
  [Code.OwnAccountNotAllowed]: {
    en: 'You cannot change your own role or status',
    tr: 'Kendi rolünüzü veya durumunuzu değiştiremezsiniz',
  },
  [Code.CoolingOff]: {
    en: 'You are taking a break from play until {until}',
    tr: '{until} zamanına kadar oyuna ara verdiniz',
  },
  [Code.SelfExcluded]: {
    en: 'You have excluded yourself from play until {until}',
    tr: '{until} zamanına kadar kendinizi oyundan men ettiniz',
  },
  [Code.AutoplayNotAllowed]: { en: 'Autoplay is not allowed', tr: 'Otomatik oyuna izin verilmiyor' },
  [Code.NotFound]: { en: 'Not found', tr: 'Bulunamadı' },
  [Code.IdempotencyConflict]: {
    en: 'This request key was already used for a different request',
    tr: 'Bu istek anahtarı farklı bir istek için kullanıldı',
  },
  [Code.RequestTooLarge]: { en: 'Request is too large', tr: 'İstek çok büyük' },
  [Code.ProtocolMismatch]: {
    en: 'This page speaks protocol {protocol}, the server {expected}: please reload the page',
    tr: 'Bu sayfa {protocol} protokolünü, sunucu {expected} protokolünü kullanıyor: lütfen sayfayı yenileyin',
  },
  [Code.TooManyRequests]: {
    en: 'Too many requests, please try again later',
    tr: 'Çok fazla istek, lütfen daha sonra tekrar deneyin',
  },
  [Code.InsufficientBalance]: { en: 'Insufficient balance', tr: 'Yetersiz bakiye' },
  [Code.DiscountBalanceTooHigh]: {
    en: 'Your balance must be below {amount}',
    tr: 'Bakiyeniz {amount} altında olmalıdır',
  },
  [Code.DiscountCooldown]: {
    en: 'You can use discount only once per 5 minutes',
    tr: 'İndirimi 5 dakikada yalnızca bir kez kullanabilirsiniz',
  },
  [Code.PromotionDisabled]: { en: 'This promotion is not available', tr: 'Bu promosyon kullanılamıyor' },
  [Code.CashInLimit]: {
    en: 'You can load at most {limit} on a machine',
    tr: 'Bir makineye en fazla {limit} yükleyebilirsiniz',
  },
  [Code.DepositLimitDay]: {
    en: 'Your daily deposit limit of {limit} allows {left} more until {resets}',
    tr: 'Günlük yükleme limitiniz {limit}: {resets} zamanına kadar en fazla {left} daha yükleyebilirsiniz',
  },
  [Code.DepositLimitWeek]: {
    en: 'Your weekly deposit limit of {limit} allows {left} more until {resets}',
    tr: 'Haftalık yükleme limitiniz {limit}: {resets} zamanına kadar en fazla {left} daha yükleyebilirsiniz',
  },
  [Code.DepositLimitMonth]: {
    en: 'Your monthly deposit limit of {limit} allows {left} more until {resets}',
    tr: 'Aylık yükleme limitiniz {limit}: {resets} zamanına kadar en fazla {left} daha yükleyebilirsiniz',
  },
  [Code.LossLimitDay]: {
    en: 'Your daily loss limit of {limit} is reached ({left} left, less than the bet); it resets at {resets}',
    tr: 'Günlük kayıp limitinize ({limit}) ulaştınız (kalan {left}, bahisten az); limit {resets} zamanında yenilenir',
  },
  [Code.LossLimitWeek]: {
    en: 'Your weekly loss limit of {limit} is reached ({left} left, less than the bet); it resets at {resets}',
    tr: 'Haftalık kayıp limitinize ({limit}) ulaştınız (kalan {left}, bahisten az); limit {resets} zamanında yenilenir',
  },
  [Code.LossLimitMonth]: {
    en: 'Your monthly loss limit of {limit} is reached ({left} left, less than the bet); it resets at {resets}',
    tr: 'Aylık kayıp limitinize ({limit}) ulaştınız (kalan {left}, bahisten az); limit {resets} zamanında yenilenir',
  },
  [Code.SessionTimeLimit]: {
    en: 'Your session time limit of {minutes} minutes is reached: cash out and take a break',
    tr: '{minutes} dakikalık oturum süresi limitinize ulaştınız: paranızı çekin ve ara verin',
  },
  [Code.NoPendingLimit]: { en: 'There is no raised limit waiting for confirmation', tr: 'Onay bekleyen bir limit artışı yok' },
  [Code.LimitRaiseNotDue]: {
    en: 'This raise can be confirmed from {at}',
    tr: 'Bu artış {at} zamanından itibaren onaylanabilir',
  },
  [Code.RealityCheckDue]: {
    en: 'Reality check: you have played for {minutes} minutes: {spins} spins, {money_in} in, {money_out} out, net {net}',
    tr: 'Gerçeklik kontrolü: {minutes} dakikadır oynuyorsunuz: {spins} oyun, {money_in} yükleme, {money_out} çekim, net {net}',
  },
  [Code.SpinTooSoon]: {
    en: 'Please wait {wait_ms} ms before the next spin',
    tr: 'Sonraki oyundan önce lütfen {wait_ms} ms bekleyin',
  },
  [Code.WatchersFull]: {
    en: 'This machine already has {max} watchers. Please try again later.',
    tr: 'Bu makineyi zaten {max} kişi izliyor. Lütfen daha sonra tekrar deneyin.',
  },
  [Code.NothingToWatch]: {
    en: 'Nobody is playing this machine right now',
    tr: 'Bu makinede şu anda kimse oynamıyor',
  },
  [Code.SpectatorCannotPlay]: {
    en: 'Spectators cannot play this machine',
    tr: 'İzleyiciler bu makinede oynayamaz',
  },
  [Code.MachineBusy]: {
    en: 'This machine is being played by another player',
    tr: 'Bu makine başka bir oyuncu tarafından oynanıyor',
  },
  [Code.OpenSessionElsewhere]: {
    en: 'You have an open session on {machine}',
    tr: '{machine} üzerinde açık bir oturumunuz var',
  },
  [Code.MachineNotAvailable]: {
    en: 'This machine is not available right now',
    tr: 'Bu makine şu anda kullanılamıyor',
  },
  [Code.UsernameTaken]: { en: 'This username is already taken', tr: 'Bu kullanıcı adı zaten alınmış' },
  [Code.MachineStopped]: {
    en: 'Staff stopped this machine: {reason}. Play is paused until they release it.',
    tr: 'Personel bu makineyi durdurdu: {reason}. Serbest bırakılana kadar oyun duraklatıldı.',
  },
  [Code.HandPayWaiting]: {
    en: 'A hand pay of {amount} is waiting for staff approval; play continues once it is paid.',
    tr: '{amount} tutarında el ödemesi personel onayı bekliyor; ödendiğinde oyun devam eder.',
  },
  [Code.HandPayNotWaiting]: {
    en: 'This hand pay is not waiting for approval',
    tr: 'Bu el ödemesi onay beklemiyor',
  },
  [Code.SecondSignerSame]: {
    en: 'A second, different staff member must approve this hand pay',
    tr: 'Bu el ödemesini ikinci, farklı bir personel onaylamalıdır',
  },
  [Code.NoOpenSession]: {
    en: 'You have no open session on this machine',
    tr: 'Bu makinede açık bir oturumunuz yok',
  },
  [Code.MachineNoAnswer]: {
    en: 'The machine did not answer, please try again',
    tr: 'Makine yanıt vermedi, lütfen tekrar deneyin',
  },
  [Code.MachineMalfunction]: {
    en: 'The machine reported a malfunction: its meters do not match the game records. Play is stopped and {amount} was paid to your wallet from the game records.',
    tr: 'Makine arıza bildirdi: sayaçları oyun kayıtlarıyla uyuşmuyor. Oyun durduruldu ve oyun kayıtlarına göre {amount} cüzdanınıza ödendi.',
  },
  [Code.InternalError]: {
    en: 'Something went wrong, please try again',
    tr: 'Bir şeyler ters gitti, lütfen tekrar deneyin',
  },
  [Code.SessionTerminated]: {
    en: 'The session has been terminated. We are unable to process the transaction.',
    tr: 'Oturum sonlandırıldı. İşleminizi gerçekleştiremiyoruz.',
  },
  [Code.PipelineFailed]: {
    en: 'Failed to start pipeline. Please contact the technical team.',
    tr: 'Yayın başlatılamadı. Lütfen teknik ekip ile iletişime geçin.',
  },
  [Code.MachineWithoutVideo]: {
    en: 'This machine has no video. Your credits are safe; choose another machine in the lobby.',
    tr: 'Bu makinenin görüntüsü yok. Kredileriniz güvende; lobiden başka bir makine seçin.',
  },
  [Code.LoginIncorrect]: {
    en: 'Incorrect username or password; remaining rights {left_count}, blocked for {block_time} minutes',
    tr: 'Kullanıcı adı veya şifre hatalı; kalan hak {left_count}, {block_time} dakika engellenecek',
  },
  [Code.LoginUnknownUser]: { en: 'Username or password is wrong', tr: 'Kullanıcı adı veya şifre yanlış' },
  [Code.LoginBlocked]: {
    en: 'Account has been protected due to too many false attempts',
    tr: 'Çok fazla hatalı deneme nedeniyle hesap koruma altına alındı',
  },
  [Code.LoginIpNotPermitted]: { en: 'Your ip is not permitted', tr: 'IP adresinize izin verilmiyor' },
  [Code.LoginBanned]: { en: 'You have been banned', tr: 'Erişiminiz engellendi' },
  [Code.OperatorDisabled]: { en: 'This operator account is disabled', tr: 'Bu operatör hesabı devre dışı' },
  [Code.InfoDepositCountdown]: {
    en: 'You have {count} seconds left to deposit funds',
    tr: 'Bakiye yüklemek için {count} saniyeniz kaldı',
  },
  [Code.InfoSessionTerminating]: { en: 'Your session is being terminated', tr: 'Oturumunuz sonlandırılıyor' },
  [Code.InfoContinueCountdown]: {
    en: 'You have {count} seconds left to continue',
    tr: 'Devam etmek için {count} saniyeniz kaldı',
  },
  [Code.AutoplaySpinsDone]: {
    en: 'Autoplay stopped: your {spins} spins are played',
    tr: 'Otomatik oyun durdu: seçtiğiniz {spins} oyun oynandı',
  },
  [Code.AutoplayLossReached]: {
    en: 'Autoplay stopped: you lost {loss} since it started (your stop: {limit})',
    tr: 'Otomatik oyun durdu: başladığından beri {loss} kaybettiniz (durdurma sınırınız: {limit})',
  },
  [Code.AutoplayWinReached]: {
    en: 'Autoplay stopped: a single win of {win} (your stop: {limit} or more)',
    tr: 'Otomatik oyun durdu: tek seferde {win} kazanç (durdurma sınırınız: {limit} veya üzeri)',
  },
  [Code.QueueElsewhere]: {
    en: 'You are already in the queue for {machine}; leave it first',
    tr: 'Zaten {machine} sırasındasınız; önce oradan çıkın',
  },
  [Code.QueueMachineFree]: {
    en: 'This machine is free: just join it',
    tr: 'Bu makine boş: doğrudan katılın',
  },
  [Code.QueueNotQueueable]: {
    en: 'This machine cannot be queued for right now',
    tr: 'Bu makine için şu anda sıraya girilemez',
  },
  [Code.QueueWhilePlaying]: {
    en: 'You have an open session on {machine}; finish it before joining a queue',
    tr: '{machine} üzerinde açık bir oturumunuz var; sıraya girmeden önce bitirin',
  },
  [Code.MachineHeldForQueue]: {
    en: 'This machine is held for the players in its queue; join the queue',
    tr: 'Bu makine sıradaki oyuncular için ayrıldı; sıraya girin',
  },
  [Code.NotInQueue]: { en: 'You are not in a queue', tr: 'Herhangi bir sırada değilsiniz' },
  [Code.QueueReadyCheck]: {
    en: 'Your turn on {machine}: accept within {seconds} seconds',
    tr: '{machine} için sıra sizde: {seconds} saniye içinde kabul edin',
  },
  [Code.QueueTurnPassed]: {
    en: 'Your turn on {machine} passed to the next player: no answer in time',
    tr: '{machine} için sıranız bir sonraki oyuncuya geçti: zamanında yanıt verilmedi',
  },
};

export type Params = Record<string, string | number>;

/** Fills `{name}` placeholders; unknown placeholders stay visible so a missing param is noticed. */
export function formatMessage(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function messageFor(code: number, language: CatalogueLanguage = 'en', params: Params = {}) {
  const entry = (catalogue as Record<number, Record<CatalogueLanguage, string>>)[code];
  return entry ? formatMessage(entry[language], params) : undefined;
}
