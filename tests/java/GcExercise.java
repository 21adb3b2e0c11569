// Makes a known number of garbage collections for the GC log test
// (tests/scripts/server_command_test.sh): allocates enough short-lived
// garbage for young collections, then asks for exactly N full ones.
// usage: java -Xlog:gc:file=LOG GcExercise N
public final class GcExercise {
  static volatile Object sink;

  public static void main(String[] args) {
    final int full = Integer.parseInt(args[0]);
    for (int i = 0; i < 200_000; i++) {
      sink = new byte[1024];  // 200 MB in all, in a heap of 64 MB: young collections
    }
    for (int i = 0; i < full; i++) {
      System.gc();  // with G1 (the default) each is one "Pause Full (System.gc())"
    }
    System.out.println("GcExercise: " + full + " full collections asked");
  }
}
