/** What global-setup.ts hands every test file of the packages suite (`inject('packages')`). */

export interface Tarball {
  /** The package's name, e.g. @payform/widget. */
  readonly name: string;
  /** The file in tarballsDirectory. */
  readonly filename: string;
  /** Bytes of the .tgz, and of its files unpacked. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  /** Every path inside the tarball, relative to the package. */
  readonly files: readonly string[];
}

export interface PackedPackages {
  /** The temporary directory holding everything below; removed when the suite ends. */
  readonly work: string;
  /** The throwaway merchant project: the tarballs and the merchant's additions installed. */
  readonly shop: string;
  readonly tarballsDirectory: string;
  readonly tarballs: readonly Tarball[];
  /** The registry packages installed beside the tarballs (name@range). */
  readonly addedByMerchant: readonly string[];
}
