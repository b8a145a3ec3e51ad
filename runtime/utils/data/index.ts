// tpu.utils.data: torch.utils.data's map-style datasets and DataLoader.
export { Dataset, type DatasetLike } from './dataset.js';
export { TensorDataset } from './tensor-dataset.js';
export { Subset } from './subset.js';
export { ConcatDataset } from './concat-dataset.js';
export { randomSplit } from './random-split.js';
export { defaultCollate, type Collated } from './default-collate.js';
export { DataLoader, type DataLoaderOptions } from './data-loader.js';
