// Hands Tensor (tensor.ts) the functions that compute and free its value.
import { setValueKeeper } from '../tensor.js';
import { checkSyncAllowed, materialize } from './materialize.js';
import { disposeBuffer, recipeMaterialized, releaseDisposed } from './recipes.js';

setValueKeeper({ checkRead: checkSyncAllowed, materialize, materialized: recipeMaterialized, disposedRecipe: releaseDisposed, disposeBuffer });
