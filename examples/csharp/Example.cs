// A tour of pathlab from C# (Unity, Godot .NET, any .NET) through the generated P/Invoke layer,
// Pathlab.cs: a search, a smoothed path, a movement range, a search spread over frames, the
// simulation and the Link game. Put the shared library where the runtime finds native libraries
// (Unity: Assets/Plugins/<platform>; Godot .NET and plain .NET: beside the executable or on the
// library path): pathlab_c.dll, libpathlab_c.so or libpathlab_c.dylib. Run it from a clone of
// the repository (it reads maps/ and scenarios/). Written by hand, not compiled here: the
// machine that builds pathlab has no .NET (docs/c.md).
using System;
using System.Runtime.InteropServices;
using Pathlab;

public static class PathlabExample
{
    static void Check(Status s, string what)
    {
        if (s != Status.Ok)
            throw new InvalidOperationException($"{what}: {s}: {Native.LastError()}");
    }

    // x0, y0, x1, y1, ... copied out of the library's memory (valid until the handle's next call).
    static int[] Cells(IntPtr cells, UIntPtr count)
    {
        var xy = new int[2 * (int)count.ToUInt64()];
        if (xy.Length > 0) Marshal.Copy(cells, xy, 0, xy.Length);
        return xy;
    }

    public static void Main()
    {
        if (Native.pathlab_abi_version() != Native.AbiVersion)
            throw new InvalidOperationException("libpathlab_c is not the ABI Pathlab.cs was made for");

        // A finder belongs to one thread at a time; dispose it before its grid.
        Check(Native.pathlab_grid_load("maps/seed_maze.txt", out GridHandle grid), "load");
        using (grid)
        {
            var options = new Options { Algorithm = "jps", ClassCosts = "T=2,W=x" };  // zero: defaults
            Check(Native.pathlab_finder_new(grid, options, out FinderHandle finder), "finder");
            using (finder)
            {
                Status s = Native.pathlab_find(finder, 7, 2, 9, 9, out Result r);
                if (s == Status.Ok)
                {
                    int[] path = Cells(r.Path, r.PathCells);
                    Console.WriteLine($"cost {r.Cost:F3}, {path.Length / 2} cells");
                    Check(Native.pathlab_smooth(finder, r.PathCells, path, "refined", out Smoothed sm),
                          "smooth");
                    Console.WriteLine($"smoothed: {sm.PathCells.ToUInt64()} waypoints, length {sm.Cost:F3}");
                }
                else if (s == Status.Invalid)
                {
                    Console.WriteLine($"refused: {Native.LastError()}");
                }

                // Every cell within 6 movement points of (7, 2), with its least cost.
                Check(Native.pathlab_reach(finder, 7, 2, 6.0, out PathlabRange range), "reach");
                int n = (int)range.Count.ToUInt64();
                var costs = new double[n];
                if (n > 0) Marshal.Copy(range.Costs, costs, 0, n);
                Console.WriteLine($"{n} cells in range");

                // A search spread over frames: at most 200 expansions per frame.
                Check(Native.pathlab_slice_start(finder, 7, 2, 27, 17), "slice");
                int frames = 1;
                while ((s = Native.pathlab_slice_run(finder, 200, out r)) == Status.InProgress) ++frames;
                Console.WriteLine($"{s} after {frames} frames, cost {r.Cost:F3}");

                Check(Native.pathlab_line_of_sight(finder, 7, 2, 12, 2, out int visible), "sight");
                Console.WriteLine(visible == 1 ? "(12, 2) is in sight" : "(12, 2) is hidden");
            }
        }

        // The simulation: a scenario file, stepped; the states live in the world until its next step.
        Check(Native.pathlab_world_load("scenarios/hybrid_l_trap.json", null, out WorldHandle world),
              "world");
        using (world)
        {
            int stride = Marshal.SizeOf<AgentState>();
            while (Native.pathlab_world_finished(world) == 0)
            {
                Check(Native.pathlab_world_step(world, 20), "step");  // 20 ticks of the scenario's dt
                IntPtr states = Native.pathlab_world_agents(world);
                int agents = (int)Native.pathlab_world_agent_count(world).ToUInt64();
                for (int i = 0; i < agents; ++i)
                {
                    var a = Marshal.PtrToStructure<AgentState>(states + i * stride);
                    Console.WriteLine($"t={Native.pathlab_world_time(world):F2} agent {a.Id} at " +
                                      $"({a.X:F2}, {a.Y:F2}){(a.Arrived != 0 ? " arrived" : "")}");
                }
            }
        }

        // The Link game: a solvable 10x8 board of 12 kinds, a hint, then the hint played.
        Check(Native.pathlab_board_generate(10, 8, 12, 7, out BoardHandle board), "generate");
        using (board)
        {
            if (Native.pathlab_board_hint(board, out LinkLine hint) == Status.Ok)
            {
                int[] p = Cells(hint.Points, hint.PointsN);  // the two tiles are the first and last points
                int last = p.Length - 2;
                Check(Native.pathlab_board_play(board, p[0], p[1], p[last], p[last + 1], "down"), "play");
            }
            Console.WriteLine(Marshal.PtrToStringUTF8(Native.pathlab_board_cells(board)));
        }
    }
}
