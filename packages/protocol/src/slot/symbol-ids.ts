/** The slot's symbol ids, free of the schema library (the web app draws symbols with them). */
/** Symbol ids, as indexes into SYMBOL_NAMES. WILD must be 0 and SCATTER the last one. */
export const Sym = {
  Wild: 0,
  Seven: 1,
  Bar: 2,
  Bell: 3,
  Melon: 4,
  Plum: 5,
  Orange: 6,
  Lemon: 7,
  Cherry: 8,
  Scatter: 9,
} as const;
export const SYMBOL_COUNT = 10;

/** Symbol ids by the names a game cycle reports (agent.ts SlotSymbol; kept equal by slot.test.ts). */
export const SYMBOL_IDS: Readonly<Record<string, number>> = {
  WILD: Sym.Wild,
  SEVEN: Sym.Seven,
  BAR: Sym.Bar,
  BELL: Sym.Bell,
  MELON: Sym.Melon,
  PLUM: Sym.Plum,
  ORANGE: Sym.Orange,
  LEMON: Sym.Lemon,
  CHERRY: Sym.Cherry,
  STAR: Sym.Scatter,
};
