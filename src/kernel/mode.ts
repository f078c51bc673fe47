/** Test keys use the offline carrier simulators; live keys buy real postage. Every layer keeps the two apart. */
export type Mode = 'test' | 'live';
export const modes = ['test', 'live'] as const;
