// One Jupyter widget model on the kernel side, synced over a `jupyter.widget` comm with
// the widget protocol 2.1 (ipywidgets 8, JupyterLab 4): comm_open carries the full state;
// comm_msg `update` carries changed keys both ways (the kernel answers a frontend's update
// with `echo_update`), `request_state` asks for the full state, `custom` carries events.
import type { Comm, CommRegistry, MimeBundle } from '../../language-session.js';
import { JUPYTER_DISPLAY } from '../../language-session.js';

export const WIDGET_TARGET = 'jupyter.widget';
export const PROTOCOL_VERSION = '2.1.0';
export const WIDGET_VIEW_MIME = 'application/vnd.jupyter.widget-view+json';

export type WidgetState = Record<string, unknown>;
export type Report = (error: unknown) => void;

/** The versions of ipywidgets 8's model modules. */
const MODULE_VERSIONS = { base: '2.0.0', controls: '2.0.0', output: '1.0.0' } as const;

/** Model and view class of a state, e.g. IntSlider of @jupyter-widgets/controls 2.0.0. */
export function modelIdentity(module: keyof typeof MODULE_VERSIONS, model: string, view: string | null): WidgetState {
  const name = `@jupyter-widgets/${module}`;
  const version = MODULE_VERSIONS[module];
  return {
    _model_module: name, _model_module_version: version, _model_name: `${model}Model`,
    _view_module: name, _view_module_version: version, _view_name: view === null ? null : `${view}View`,
  };
}

/** The open models, for the control comm's `request_states`. */
export class WidgetRegistry {
  readonly models = new Map<string, WidgetModel>();
  constructor(readonly comms: CommRegistry, readonly report: Report) {}
}

export class WidgetModel {
  readonly comm: Comm;
  private readonly customHandlers: ((content: unknown) => void)[] = [];

  /** `received` sees the keys a frontend changed, after they are in `state`. */
  constructor(
    private readonly registry: WidgetRegistry,
    readonly state: WidgetState,
    private readonly received: (changed: WidgetState) => void = () => {},
  ) {
    this.comm = registry.comms.open(WIDGET_TARGET, { state, buffer_paths: [] }, { version: PROTOCOL_VERSION });
    registry.models.set(this.modelId, this);
    this.comm.onMsg((data) => this.message(data as { method?: string; state?: WidgetState; content?: unknown }));
    this.comm.onClose(() => registry.models.delete(this.modelId));
  }

  get modelId(): string {
    return this.comm.commId;
  }

  /** A reference to this model in another model's state (layout, style). */
  get reference(): string {
    return `IPY_MODEL_${this.modelId}`;
  }

  /** Changes keys from the kernel side and tells the frontends. */
  set(changes: WidgetState): void {
    Object.assign(this.state, changes);
    this.comm.send({ method: 'update', state: changes, buffer_paths: [] });
  }

  sendCustom(content: unknown): void {
    this.comm.send({ method: 'custom', content });
  }

  onCustom(handler: (content: unknown) => void): void {
    this.customHandlers.push(handler);
  }

  close(): void {
    this.registry.models.delete(this.modelId);
    this.comm.close();
  }

  displayBundle(text: string): MimeBundle {
    return { [WIDGET_VIEW_MIME]: { version_major: 2, version_minor: 0, model_id: this.modelId }, 'text/plain': text };
  }

  private message(data: { method?: string; state?: WidgetState; content?: unknown }): void {
    try {
      if (data.method === 'update' && data.state) {
        Object.assign(this.state, data.state);
        this.comm.send({ method: 'echo_update', state: data.state, buffer_paths: [] });
        this.received(data.state);
      } else if (data.method === 'request_state') {
        this.comm.send({ method: 'update', state: this.state, buffer_paths: [] });
      } else if (data.method === 'custom') {
        for (const handler of this.customHandlers) handler(data.content);
      }
    } catch (error) {
      this.registry.report(error);
    }
  }
}

/** What cells hold: a widget shows itself when displayed or left as a cell's result. */
export abstract class Widget {
  constructor(protected readonly model: WidgetModel) {}

  get modelId(): string {
    return this.model.modelId;
  }

  /** Sends a custom message to the frontend's view. */
  send(content: unknown): void {
    this.model.sendCustom(content);
  }

  /** Calls `handler` with each custom message from the frontend's view. */
  onCustom(handler: (content: unknown) => void): void {
    this.model.onCustom(handler);
  }

  /** Closes the widget's comm; its views go away. */
  close(): void {
    this.model.close();
  }

  protected abstract summary(): string;

  [JUPYTER_DISPLAY](): MimeBundle {
    return this.model.displayBundle(this.summary());
  }
}

/** The control comm (`jupyter.widget.control`): a reloaded page asks for every model's state at once. */
export function serveControlComm(registry: WidgetRegistry): void {
  registry.comms.registerTarget(`${WIDGET_TARGET}.control`, (comm) => {
    comm.onMsg((data) => {
      if ((data as { method?: string }).method !== 'request_states') return;
      const states = Object.fromEntries([...registry.models].map(([id, model]) => [id, model.state]));
      comm.send({ method: 'update_states', states, buffer_paths: {} });
    });
  });
}
