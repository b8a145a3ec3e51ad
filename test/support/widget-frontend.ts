// A minimal Jupyter frontend for the browser widget test, bundled by esbuild: a kernel started
// through Jupyter Server with @jupyterlab/services, and the widget manager classes JupyterLab 4
// draws ipywidgets 8 with (@jupyter-widgets/base-manager, base, controls) on its comms. It shows
// what a cell displays (text, or a widget's view) and applies update_display_data by display id
// whatever its parent, as JupyterLab does. window.execute(code) runs a cell.
import { KernelManager, ServerConnection } from '@jupyterlab/services';
import { ManagerBase } from '@jupyter-widgets/base-manager';
import * as base from '@jupyter-widgets/base';
import * as controls from '@jupyter-widgets/controls';
import { Widget } from '@lumino/widgets';
import '@jupyter-widgets/base/css/index.css';
import '@jupyter-widgets/controls/css/widgets.built.css';

const MODULES: Record<string, Record<string, unknown>> = { '@jupyter-widgets/base': base, '@jupyter-widgets/controls': controls };
const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';

class KernelWidgetManager extends ManagerBase {
  constructor(private readonly kernel: any) {
    super();
    kernel.registerCommTarget('jupyter.widget', (comm: any, msg: any) => this.handle_comm_open(new base.shims.services.Comm(comm), msg));
  }

  protected async loadClass(className: string, moduleName: string, moduleVersion: string): Promise<any> {
    const found = MODULES[moduleName]?.[className];
    if (!found) throw new Error(`widget class ${className} of ${moduleName}@${moduleVersion} is not loaded`);
    return found;
  }

  protected async _create_comm(target: string, modelId?: string, data?: any, metadata?: any, buffers?: any): Promise<any> {
    const comm = this.kernel.createComm(target, modelId);
    if (data || metadata) comm.open(data, metadata, buffers);
    return new base.shims.services.Comm(comm);
  }

  protected async _get_comm_info(): Promise<{}> {
    const reply = await this.kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    return reply.content.status === 'ok' ? reply.content.comms : {};
  }
}

const out = () => document.getElementById('out')!;

function showText(text: string, displayId?: string): void {
  const pre = document.createElement('pre');
  pre.textContent = text;
  if (displayId) pre.dataset.displayId = displayId;
  out().appendChild(pre);
}

async function main(): Promise<void> {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const serverSettings = ServerConnection.makeSettings({ baseUrl: new URL('../', location.href).href, token });
  const kernel = await new KernelManager({ serverSettings }).startNew({ name: 'tpu-ts' });
  const manager = new KernelWidgetManager(kernel);
  kernel.iopubMessage.connect((_: unknown, msg: any) => {
    if (msg.header.msg_type !== 'update_display_data') return;
    for (const pre of document.querySelectorAll<HTMLElement>('pre[data-display-id]')) {
      if (pre.dataset.displayId === msg.content.transient.display_id) pre.textContent = String(msg.content.data['text/plain']);
    }
  });
  (window as any).execute = async (code: string): Promise<string> => {
    const future = kernel.requestExecute({ code });
    const views: Promise<void>[] = [];
    future.onIOPub = (msg: any) => {
      const type = msg.header.msg_type;
      if (type === 'stream') showText(msg.content.text);
      if (type === 'error') showText(`${msg.content.ename}: ${msg.content.evalue}`);
      if (type !== 'display_data' && type !== 'execute_result') return;
      const view = msg.content.data[WIDGET_VIEW];
      if (!view) return showText(String(msg.content.data['text/plain']), msg.content.transient?.display_id);
      views.push(manager.get_model(view.model_id)
        .then((model) => manager.create_view(model))
        .then((created: any) => Widget.attach(created.luminoWidget, out())));
    };
    const reply = await future.done;
    await Promise.all(views);
    return reply.content.status;
  };
  (window as any).ready = true;
}

main().catch((error) => {
  (window as any).failed = String(error?.stack ?? error);
});
