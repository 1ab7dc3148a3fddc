"""The table of README.md from runs.txt: how each probe figure correlates (log-log) with the real runs beside it."""
import re,sys,numpy as np
rows=[l for l in open(sys.argv[1]) if 'c64_hold' in l]
c64=[];s640=[];P=[]
for l in rows:
    c64.append(float(re.search(r'c64_hold_ms ([\d.]+)',l).group(1)))
    s640.append(float(re.search(r's640_ns_op ([\d.]+)',l).group(1)))
    P.append([list(map(float,re.findall(r'(?:moved|same|warm) ([\d.]+)',seg))) for seg in l.split('|')[1:]])
P=np.array(P)
print("| probe figure | r with counter@64's hold | r with scan@640's ns an element |")
print("|---|---:|---:|")
for j,n in enumerate(['moved: median hold after another thread','same: median hold after the same thread','warm: ns an element of a warm 440-node walk']):
    x1=(P[:,0,j]+P[:,1,j])/2; x2=(P[:,1,j]+P[:,2,j])/2
    print(f"| {n} | {np.corrcoef(np.log(c64),np.log(x1))[0,1]:.2f} | {np.corrcoef(np.log(s640),np.log(x2))[0,1]:.2f} |")
print()
print(f"counter@64 lock hold over the {len(c64)} runs: {min(c64):.1f}–{max(c64):.1f} ms, sd of ln {np.std(np.log(c64)):.3f}")
print(f"scan@640 (1,500 calls) ns an element: {min(s640):.2f}–{max(s640):.2f}, sd of ln {np.std(np.log(s640)):.3f}")
