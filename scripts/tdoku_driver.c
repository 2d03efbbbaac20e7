/* Time tdoku (t-dillon/tdoku) on a file of one-line sudoku, on one core.

   cc -O2 tdoku_driver.c libtdoku_static.a -lstdc++ -lm -o tdoku_driver
   ./tdoku_driver FILE LIMIT ROUNDS TIMES

   Reads FILE (81 characters a puzzle line, '#' lines skipped) into memory, then
   TIMES times: solves every puzzle ROUNDS times over with tdoku's solver, counting up
   to LIMIT solutions, and prints one line "puzzles solutions cpu_seconds" (the
   process's CPU time of those solves; reading the file is not in it). Exit status 1
   when a puzzle has no solution. Used by scripts/bench_sudoku.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE LIMIT ROUNDS TIMES\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    size_t limit = strtoull(argv[2], NULL, 10);
    long rounds = atol(argv[3]), times = atol(argv[4]);
    size_t n = 0, room = 1024, size = 0;
    char *puzzles = malloc(room * 82), *line = NULL, solution[81];
    while (getline(&line, &size, f) != -1) {
        if (strlen(line) < 81 || line[0] == '#') continue;
        if (n == room) puzzles = realloc(puzzles, (room *= 2) * 82);
        memcpy(puzzles + 82 * n, line, 81);
        puzzles[82 * n + 81] = '\0';
        n++;
    }
    fclose(f);
    for (long t = 0; t < times; t++) {
        size_t found = 0, guesses;
        double t0 = cpu_seconds();
        for (long r = 0; r < rounds; r++) {
            for (size_t k = 0; k < n; k++) {
                size_t count = TdokuSolverDpllTriadSimd(puzzles + 82 * k, limit, 0, solution,
                                                        &guesses);
                if (count == 0) {
                    fprintf(stderr, "no solution: %.81s\n", puzzles + 82 * k);
                    return 1;
                }
                found += count;
            }
        }
        printf("%zu %zu %.6f\n", n * rounds, found, cpu_seconds() - t0);
    }
    free(puzzles);
    free(line);
    return 0;
}
