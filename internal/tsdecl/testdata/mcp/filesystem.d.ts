interface Filesystem_CreateDirectoryInput {
  path: string;
}

interface Filesystem_CreateDirectoryOutput {
  content: string;
}

interface Filesystem_DirectoryTreeInput {
  path: string;
  /** @default [] */
  excludePatterns?: string[];
}

interface Filesystem_DirectoryTreeOutput {
  content: string;
}

interface Filesystem_EditFileInput {
  path: string;
  edits: {
    /** Text to search for - must match exactly */
    oldText: string;
    /** Text to replace with */
    newText: string;
  }[];
  /**
   * Preview changes using git-style diff format
   * @default false
   */
  dryRun?: boolean;
}

interface Filesystem_EditFileOutput {
  content: string;
}

interface Filesystem_GetFileInfoInput {
  path: string;
}

interface Filesystem_GetFileInfoOutput {
  content: string;
}

interface Filesystem_ListAllowedDirectoriesOutput {
  content: string;
}

interface Filesystem_ListDirectoryInput {
  path: string;
}

interface Filesystem_ListDirectoryOutput {
  content: string;
}

interface Filesystem_ListDirectoryWithSizesInput {
  path: string;
  /**
   * Sort entries by name or size
   * @default "name"
   */
  sortBy?: "name" | "size";
}

interface Filesystem_ListDirectoryWithSizesOutput {
  content: string;
}

interface Filesystem_MoveFileInput {
  source: string;
  destination: string;
}

interface Filesystem_MoveFileOutput {
  content: string;
}

interface Filesystem_ReadFileInput {
  path: string;
  /** If provided, returns only the last N lines of the file */
  tail?: number;
  /** If provided, returns only the first N lines of the file */
  head?: number;
}

interface Filesystem_ReadFileOutput {
  content: string;
}

interface Filesystem_ReadMediaFileInput {
  path: string;
}

interface Filesystem_ReadMediaFileOutput {
  content: ({ type: "image" | "audio"; data: string; mimeType: string } | {
    type: "resource";
    resource: { uri: string; mimeType?: string; blob: string };
  })[];
}

interface Filesystem_ReadMultipleFilesInput {
  /**
   * Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
   * @minItems 1
   */
  paths: string[];
}

interface Filesystem_ReadMultipleFilesOutput {
  content: string;
}

interface Filesystem_ReadTextFileInput {
  path: string;
  /** If provided, returns only the last N lines of the file */
  tail?: number;
  /** If provided, returns only the first N lines of the file */
  head?: number;
}

interface Filesystem_ReadTextFileOutput {
  content: string;
}

interface Filesystem_SearchFilesInput {
  path: string;
  pattern: string;
  /** @default [] */
  excludePatterns?: string[];
}

interface Filesystem_SearchFilesOutput {
  content: string;
}

interface Filesystem_WriteFileInput {
  path: string;
  content: string;
}

interface Filesystem_WriteFileOutput {
  content: string;
}

declare const tools: {
  filesystem: {
    /** Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories. */
    create_directory(args: Filesystem_CreateDirectoryInput): Promise<Filesystem_CreateDirectoryOutput>;
    /** Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories. */
    directory_tree(args: Filesystem_DirectoryTreeInput): Promise<Filesystem_DirectoryTreeOutput>;
    /** Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories. */
    edit_file(args: Filesystem_EditFileInput): Promise<Filesystem_EditFileOutput>;
    /** Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories. */
    get_file_info(args: Filesystem_GetFileInfoInput): Promise<Filesystem_GetFileInfoOutput>;
    /** Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files. */
    list_allowed_directories(): Promise<Filesystem_ListAllowedDirectoriesOutput>;
    /** Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories. */
    list_directory(args: Filesystem_ListDirectoryInput): Promise<Filesystem_ListDirectoryOutput>;
    /** Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories. */
    list_directory_with_sizes(args: Filesystem_ListDirectoryWithSizesInput): Promise<Filesystem_ListDirectoryWithSizesOutput>;
    /** Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories. */
    move_file(args: Filesystem_MoveFileInput): Promise<Filesystem_MoveFileOutput>;
    /** Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead. */
    read_file(args: Filesystem_ReadFileInput): Promise<Filesystem_ReadFileOutput>;
    /** Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories. */
    read_media_file(args: Filesystem_ReadMediaFileInput): Promise<Filesystem_ReadMediaFileOutput>;
    /** Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories. */
    read_multiple_files(args: Filesystem_ReadMultipleFilesInput): Promise<Filesystem_ReadMultipleFilesOutput>;
    /** Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories. */
    read_text_file(args: Filesystem_ReadTextFileInput): Promise<Filesystem_ReadTextFileOutput>;
    /** Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**\/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories. */
    search_files(args: Filesystem_SearchFilesInput): Promise<Filesystem_SearchFilesOutput>;
    /** Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories. */
    write_file(args: Filesystem_WriteFileInput): Promise<Filesystem_WriteFileOutput>;
  };
};
declare const filesystem: typeof tools.filesystem;

// Signatures:
// tools.filesystem.read_file({path: string, tail?: number, head?: number}): Promise<{content: string}>
// tools.filesystem.read_text_file({path: string, tail?: number, head?: number}): Promise<{content: string}>
// tools.filesystem.read_media_file({path: string}): Promise<{content: {…}[]}>
// tools.filesystem.read_multiple_files({paths: string[]}): Promise<{content: string}>
// tools.filesystem.write_file({path: string, content: string}): Promise<{content: string}>
// tools.filesystem.edit_file({path: string, edits: {…}[], dryRun?: boolean}): Promise<{content: string}>
// tools.filesystem.create_directory({path: string}): Promise<{content: string}>
// tools.filesystem.list_directory({path: string}): Promise<{content: string}>
// tools.filesystem.list_directory_with_sizes({path: string, sortBy?: "name" | "size"}): Promise<{content: string}>
// tools.filesystem.directory_tree({path: string, excludePatterns?: string[]}): Promise<{content: string}>
// tools.filesystem.move_file({source: string, destination: string}): Promise<{content: string}>
// tools.filesystem.search_files({path: string, pattern: string, excludePatterns?: string[]}): Promise<{content: string}>
// tools.filesystem.get_file_info({path: string}): Promise<{content: string}>
// tools.filesystem.list_allowed_directories(): Promise<{content: string}>
