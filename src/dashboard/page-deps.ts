import type { Mode } from '../kernel/mode.ts';
import type { Services } from '../services.ts';

/** What every dashboard page is given when it is registered: the services, and the mode it shows. */
export interface PageDeps {
  services: Services;
  mode: Mode;
}
