graph [
  directed 1
  label "1"
  node [
    id 0
    label "0"
    charge 1.0
    size 1
  ]
  node [
    id 1
    label "1"
    charge 0.5
    size 2
  ]
  node [
    id 2
    label "2"
    charge -0.5
    size 3
  ]
  edge [
    source 0
    target 1
    weight 2.0
  ]
  edge [
    source 1
    target 0
    weight 4.0
  ]
  edge [
    source 1
    target 2
  ]
  edge [
    source 2
    target 0
    weight 0.25
  ]
]
