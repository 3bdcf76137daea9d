/**
 * Texts of the documentation and template pages (the `pages` namespace). They ship with the pages'
 * own lazily loaded chunk, not with the app's language bundles, which every page downloads.
 */
export const pagesEn = {
  yourRoles: 'Your roles: {{roles}}',
  noRoles: 'none (guest)',
  adminExample: 'This page is only visible to admins.',
  staffExample: 'This page is only visible to admin and staff.',
  guestExample: 'This page is only visible to guests.',
  backToLobby: 'Back to the lobby',
  comingSoon: {
    title: 'Coming soon',
    body: 'This part of Reel Live is still being built. Until it opens, the machines are waiting for you in the lobby.',
  },
  documentation: {
    title: 'Documentation',
    intro:
      'Reel Live lets you play real slot machines over live video. What you see is the cabinet itself: your browser shows its picture and sends your buttons, and the machine decides every game.',
    guide: 'Player guide',
    apiTitle: 'For developers and operators',
    apiBody:
      'The API that this app uses (REST calls, the game and notification WebSockets, codes and messages) is documented for integrators. The rules of the game and the player protection tools are in the information pages at the bottom of every page.',
    apiLink: 'Open the API documentation',
  },
  guide: {
    lobby: {
      title: 'The lobby',
      body: 'Choose a slot group, then a machine. Each machine shows its status: Available machines can be played; Playing, Waiting and Reserved ones are held by someone; Not Available ones are offline or out of order.',
    },
    join: {
      title: 'Playing a machine',
      body: 'Press Play on an available machine. Its live video starts and the machine is yours until you leave: nobody else can play it meanwhile.',
    },
    credits: {
      title: 'Credits',
      body: "Load money from your balance onto the machine with the coin buttons. Bets are taken from the machine's credits and wins are added to them. A machine holds at most its limit.",
    },
    spin: {
      title: 'Spinning',
      body: 'Choose your bet and press Spin, or the space bar. Autoplay spins for you until you stop it. While the picture is frozen or still connecting, Spin waits: you always see the game you pay for.',
    },
    cashout: {
      title: 'Cashing out',
      body: "Cash out brings the machine's credits back to your balance. Leaving the game screen cashes out too.",
    },
    reconnect: {
      title: 'When the connection drops',
      body: 'Your session stays open for a while. Back on the game or in the lobby you choose to continue, cash out or cancel; your credits are never lost.',
    },
    account: {
      title: 'Your account',
      body: 'Your balance, game sessions and transactions are in the menu. Your PIN locks the screen when you step away, and support is in the chat panel if anything looks wrong.',
    },
  },
  auth: {
    login: {
      title: 'Signing in',
      body: 'You are signed in as {{name}}. Reel Live has one sign-in page; Remember me keeps you signed in on this device, and after five wrong passwords in a row the account is blocked for a while.',
      action: 'Sign out',
    },
    register: {
      title: 'Opening an account',
      body: 'Accounts are opened by the operator, not on this site. To open one, or to change your details, contact support.',
      support: 'Support: {{phone}}',
    },
    password: {
      title: 'Changing or resetting your password',
      body: 'You can change your password on your profile page at any time (at least 8 characters). If you forgot it, support resets it after checking who you are, and every device is signed out.',
      profile: 'Change password',
      procedure: 'Read the password reset procedure',
    },
    lock: {
      title: 'Screen lock',
      on: 'After a minute without input the screen locks, and your PIN opens it again. Autoplay and free spins are never interrupted.',
      off: 'The screen lock is switched off on this site: after a minute without input you are only asked whether you are still there.',
      pin: 'You have a PIN.',
      noPin: 'You have no PIN yet: support can set one for you.',
    },
    mail: {
      title: 'E-mail confirmation',
      body: 'Reel Live sends no e-mail, so there is nothing to confirm: your account was checked when the operator opened it.',
    },
  },
  search: {
    title: 'Search',
    classic: 'Classic search',
    modern: 'Modern search',
    label: 'Search the menu and the information pages',
    hint: 'Type a word from a page title.',
    empty: 'No results..',
    count: '{{count}} results',
    opensInNewTab: '(opens in a new tab)',
  },
  ui: {
    icons: {
      title: 'Icons',
      intro: 'Every icon the app draws ({{count}}): inline SVG paths from Material Design, so no icon font is downloaded.',
      filter: 'Filter icons',
    },
    typography: {
      title: 'Typography',
      intro: "The type the app uses: the system font stack, sizes from the page heading down to small print, and money written the way your language writes it.",
      headings: 'Headings',
      heading: 'Heading level {{level}}',
      body: 'Body text',
      bodySample: 'Real slot machines, live on your screen.',
      muted: 'Muted text, for secondary facts',
      small: 'Small print',
      money: 'Money',
      numbers: 'Numbers',
      code: 'Code',
    },
    helpers: {
      title: 'Helper classes',
      intro: "Small CSS classes the app's screens share.",
      muted: 'Secondary text in the muted colour.',
      small: 'Smaller text.',
      textAccent: "Text in the theme's accent colour.",
      textWarning: 'Text in the warning colour.',
      centerText: 'Centred text.',
      visuallyHidden: 'Read by screen readers, not shown.',
      card: 'A raised surface with a border.',
      badge: 'A small count.',
      hiddenSample: '(this sentence is hidden)',
    },
    layouts: {
      title: 'Page layout: {{name}}',
      intro: 'One of the page layouts the app can use, filled with the player guide.',
      contents: 'Contents',
      carded: 'Carded',
      simple: 'Simple',
      blank: 'Blank',
      fullWidth: 'full width',
      leftSidebar: 'left sidebar',
      rightSidebar: 'right sidebar',
      tabbed: 'tabbed',
    },
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type PageTexts = Widen<typeof pagesEn>;
