// PyTorch's RemovableHandle, shared by the tensor hooks and the module forward hooks:
// remove() takes the entry out of its list once, and tells its registry.

/** What registering a hook returns: remove() unregisters it (again is a no-op). */
export interface RemovableHandle {
  remove(): void;
}

/** A handle that removes `entry` from `list` on its first remove(), then calls onRemove. */
export function removableHandle(list: unknown[], entry: unknown, onRemove: () => void): RemovableHandle {
  let removed = false;
  return {
    remove() {
      const i = list.indexOf(entry);
      if (removed || i < 0) return;
      removed = true;
      list.splice(i, 1);
      onRemove();
    },
  };
}
