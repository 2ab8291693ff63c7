package dev.lakerewrite.retrieval;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only vector file behind {@link CachingEmbedder}; one instance per file per JVM (Java's file locks
 * are per process, so threads share the instance and processes share the lock).
 *
 * <p>Format (little-endian): header {@code "LRVEC001"}, {@code int dimension}, {@code int idLength}, the model id
 * in UTF-8; then records {@code int textLength, text UTF-8, float[dimension], int crc32(text, floats)}. Readers
 * stop at the first incomplete or corrupt record; the next writer, holding the lock, truncates it away.
 *
 * <p>A {@link FileChannel} is closed for every thread when one thread is interrupted during its I/O, and the
 * rewriter's cancellation interrupts threads. So the store does its I/O with the caller's interrupt status
 * cleared (and restored after: the caller still sees it), and reopens the channel when an interrupt that
 * arrived mid-I/O closed it anyway; one cancelled rewrite never breaks the cache for the others.
 */
final class EmbeddingStore {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddingStore.class);
  private static final byte[] MAGIC = "LRVEC001".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_TEXT_BYTES = 1 << 24;
  private static final Map<Path, EmbeddingStore> OPEN = new HashMap<>();

  private final Path file;
  private final String modelId;
  private final int dimension;
  private final int vectorBytes;
  /** Replaced by {@link #reopen} when an interrupt closed it; guarded by {@link #OPEN} for replacement. */
  private volatile FileChannel channel;
  private boolean released;
  /** Text → file offset of its vector. */
  private final ConcurrentHashMap<String, Long> offsets = new ConcurrentHashMap<>();
  /** Vectors that could not be written (disk full, read-only directory): still served from memory. */
  private final ConcurrentHashMap<String, float[]> unwritten = new ConcurrentHashMap<>();
  /** End of the last valid record this process has read or written. */
  private long validEnd;
  private int references;

  private EmbeddingStore(Path file, String modelId, int dimension) throws IOException {
    this.file = file;
    this.modelId = modelId;
    this.dimension = dimension;
    this.vectorBytes = dimension * Float.BYTES;
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try (Uninterrupted u = new Uninterrupted(); FileLock lock = channel.lock()) {
      if (channel.size() == 0) {
        ByteBuffer header = header();
        while (header.hasRemaining()) {
          channel.write(header, channel.size());
        }
      }
      validEnd = checkHeader();
      scan(true);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  static EmbeddingStore acquire(Path directory, String modelId, int dimension) {
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive, was " + dimension);
    }
    try {
      Files.createDirectories(directory);
      Path file = directory.resolve(fileName(modelId, dimension)).toAbsolutePath().normalize();
      synchronized (OPEN) {
        EmbeddingStore store = OPEN.get(file);
        if (store == null) {
          store = new EmbeddingStore(file, modelId, dimension);
          OPEN.put(file, store);
        }
        store.references++;
        return store;
      }
    } catch (IOException e) {
      throw new RetrievalException("cannot open the embedding cache in " + directory + ": " + e.getMessage(), e);
    }
  }

  /** A readable file name that differs for every model id. */
  static String fileName(String modelId, int dimension) {
    String readable = modelId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    if (readable.length() > 60) {
      readable = readable.substring(0, 60);
    }
    return readable + "-" + dimension + "-" + Integer.toHexString(modelId.hashCode()) + ".vec";
  }

  Path file() {
    return file;
  }

  int size() {
    return offsets.size() + unwritten.size();
  }

  boolean contains(String text) {
    return offsets.containsKey(text) || unwritten.containsKey(text);
  }

  float[] get(String text) {
    Long offset = offsets.get(text);
    if (offset == null) {
      return unwritten.get(text);
    }
    ByteBuffer buf = ByteBuffer.allocate(vectorBytes).order(ByteOrder.LITTLE_ENDIAN);
    try (Uninterrupted u = new Uninterrupted()) {
      try {
        readFully(buf, offset);
      } catch (ClosedChannelException closedMidRead) {
        reopen();
        buf.clear();
        readFully(buf, offset);
      }
    } catch (IOException e) {
      throw new RetrievalException("cannot read the embedding cache " + file + ": " + e.getMessage(), e);
    }
    buf.flip();
    float[] v = new float[dimension];
    buf.asFloatBuffer().get(v);
    return v;
  }

  /** Appends the vectors of texts not yet stored, under the file lock. */
  synchronized void putAll(List<String> texts, List<float[]> vectors) {
    if (texts.size() != vectors.size()) {
      throw new IllegalArgumentException(texts.size() + " texts but " + vectors.size() + " vectors");
    }
    try (Uninterrupted u = new Uninterrupted()) {
      try {
        append(texts, vectors);
      } catch (ClosedChannelException closedMidWrite) {
        // Whatever was written before the close is a complete prefix or a torn record the next append removes.
        reopen();
        append(texts, vectors);
      }
    } catch (IOException e) {
      LOG.warn("cannot write to the embedding cache {} ({}); keeping {} vectors in memory only", file,
          e.getMessage(), texts.size());
      for (int i = 0; i < texts.size(); i++) {
        if (!offsets.containsKey(texts.get(i))) {
          unwritten.put(texts.get(i), vectors.get(i).clone());
        }
      }
    }
  }

  private void append(List<String> texts, List<float[]> vectors) throws IOException {
    try (FileLock lock = channel.lock()) {
      scan(false);
      if (channel.size() > validEnd) {
        // A torn record left by a crashed writer: nobody else can be writing while we hold the lock.
        channel.truncate(validEnd);
      }
      Map<String, Long> added = new HashMap<>();
      ByteBuffer out = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
      long position = validEnd;
      for (int i = 0; i < texts.size(); i++) {
        String text = texts.get(i);
        float[] v = vectors.get(i);
        if (v.length != dimension) {
          throw new IllegalArgumentException("vector of '" + text + "' has " + v.length + " dimensions, expected "
              + dimension);
        }
        if (offsets.containsKey(text) || added.containsKey(text)) {
          continue;
        }
        byte[] key = text.getBytes(StandardCharsets.UTF_8);
        if (key.length > MAX_TEXT_BYTES) {
          unwritten.put(text, v.clone());
          continue;
        }
        int recordBytes = Integer.BYTES + key.length + vectorBytes + Integer.BYTES;
        if (out.remaining() < recordBytes) {
          position += flush(out, position);
          if (out.capacity() < recordBytes) {
            out = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
          }
        }
        out.putInt(key.length).put(key);
        int vectorStart = out.position();
        for (float f : v) {
          out.putFloat(f);
        }
        CRC32 crc = new CRC32();
        crc.update(key);
        crc.update(out.array(), vectorStart, vectorBytes);
        out.putInt((int) crc.getValue());
        added.put(text, position + vectorStart);
      }
      position += flush(out, position);
      validEnd = position;
      offsets.putAll(added);
    }
  }

  /** Opens the file again after an interrupt closed the channel (unless the store was released). */
  private void reopen() throws IOException {
    synchronized (OPEN) {
      if (released) {
        throw new ClosedChannelException();
      }
      if (!channel.isOpen()) {
        LOG.debug("embedding cache {}: reopening after an interrupted thread closed it", file);
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
      }
    }
  }

  /**
   * Clears the calling thread's interrupt status for the I/O it guards and restores it on close, so an
   * interrupted caller does not close the channel that all threads share.
   */
  private static final class Uninterrupted implements AutoCloseable {
    private final boolean wasInterrupted = Thread.interrupted();

    @Override
    public void close() {
      if (wasInterrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private int flush(ByteBuffer out, long position) throws IOException {
    out.flip();
    int written = 0;
    while (out.hasRemaining()) {
      written += channel.write(out, position + written);
    }
    out.clear();
    return written;
  }

  /**
   * Reads records from {@link #validEnd} to the end of the file (those other processes appended). Must hold
   * the file lock; stops at the first incomplete or corrupt record.
   */
  private void scan(boolean opening) throws IOException {
    long size = channel.size();
    long pos = validEnd;
    ByteBuffer intBuf = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer vec = ByteBuffer.allocate(vectorBytes + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    int dropped = 0;
    while (pos + Integer.BYTES <= size) {
      intBuf.clear();
      readFully(intBuf, pos);
      int keyLength = intBuf.flip().getInt();
      long recordEnd = pos + Integer.BYTES + (long) keyLength + vectorBytes + Integer.BYTES;
      if (keyLength < 0 || keyLength > MAX_TEXT_BYTES || recordEnd > size) {
        dropped++;
        break;
      }
      ByteBuffer key = ByteBuffer.allocate(keyLength);
      readFully(key, pos + Integer.BYTES);
      vec.clear();
      readFully(vec, pos + Integer.BYTES + keyLength);
      CRC32 crc = new CRC32();
      crc.update(key.array());
      crc.update(vec.array(), 0, vectorBytes);
      int stored = vec.getInt(vectorBytes);
      if (stored != (int) crc.getValue()) {
        dropped++;
        break;
      }
      offsets.put(new String(key.array(), StandardCharsets.UTF_8), pos + Integer.BYTES + keyLength);
      pos = recordEnd;
    }
    validEnd = pos;
    if (dropped > 0 && opening) {
      LOG.warn("embedding cache {}: ignoring a torn or corrupt record at byte {} (a crashed writer?)", file, pos);
    }
  }

  private void readFully(ByteBuffer buf, long position) throws IOException {
    long pos = position;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        throw new IOException("unexpected end of " + file + " at byte " + pos);
      }
      pos += n;
    }
  }

  private ByteBuffer header() {
    byte[] id = modelId.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(MAGIC.length + 2 * Integer.BYTES + id.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).putInt(dimension).putInt(id.length).put(id);
    return b.flip();
  }

  /** Checks that the file is a vector cache of this model; returns the offset of the first record. */
  private long checkHeader() throws IOException {
    ByteBuffer expected = header();
    ByteBuffer actual = ByteBuffer.allocate(expected.remaining());
    if (channel.size() < expected.remaining()) {
      throw new RetrievalException("embedding cache " + file + " is not a vector cache of " + modelId
          + " (header too short); delete it");
    }
    readFully(actual, 0);
    actual.flip();
    if (!actual.equals(expected)) {
      throw new RetrievalException("embedding cache " + file + " does not hold vectors of " + modelId + " with "
          + dimension + " dimensions; delete it");
    }
    return expected.remaining();
  }

  void release() {
    synchronized (OPEN) {
      if (--references > 0) {
        return;
      }
      OPEN.remove(file);
      released = true;
    }
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing {}", file, e);
    }
  }
}
